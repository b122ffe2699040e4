import type { Knex } from 'knex';
import { oneRow } from '../../foundations/one-row.ts';
import type { Config } from '../../foundations/config.ts';

// Login attempts at the embedded provider, counted in the database before the password is checked,
// so that every API process sees the same counts and parallel attempts cannot all slip under a limit.
// Three counters, so that nobody can lock somebody else out:
// - an account from one address (the attacker's own pair) and one address for all names: hard limits
//   for the rest of the window;
// - an account from all addresses together: beyond its limit each next attempt waits a growing delay,
//   so an attack from many addresses slows down. The delay holds back only addresses that have tried
//   this account in the window: the first attempt from any other address is not delayed, or guesses
//   from a few addresses would keep the owner out (twenty wrong passwords make it the whole window).
//   A guesser gains one attempt per new address; each new address then waits like the others.

type Rules = Config['loginThrottle'];

/** What one attempt may do: check the password (with its counts), or wait so many seconds. */
export type Claim =
  { allowed: true; pair: number; address: number; account: number } | { allowed: false; waitSeconds: number };

const windowOver = `t.window_start <= now() - :window * interval '1 second'`;

/** One counter's upsert: a new window starts at 1, else one more attempt, only while under `limit`. */
const counter = (name: string, scope: string, username: string, limit: string, from?: string) => `
  ${name} as (
    insert into login_throttle as t (scope, username, address, attempts)
    ${from ? `select '${scope}', ${username}, :address, 1 from ${from}` : `values ('${scope}', ${username}, :address, 1)`}
    on conflict (scope, username, address) do update set
      attempts = case when ${windowOver} then 1 else t.attempts + 1 end,
      window_start = case when ${windowOver} then now() else t.window_start end
    where ${windowOver} or t.attempts < ${limit}
    returning attempts
  )`;

/** The account's delay after its `attempts`-th attempt: none below the limit, then doubling, at most the window. */
const delay = (attempts: string) =>
  `case when ${attempts} >= :perAccount
     then now() + least(:window, :delay * power(2, ${attempts} - :perAccount)) * interval '1 second' end`;

// Pair first, then address, then account: an attempt that its own pair or address refuses never
// reaches the account's counter, so an attacker at their limit cannot delay the owner any further.
// Each step is an upsert on one row: PostgreSQL locks the row and re-reads it before the condition,
// so parallel attempts queue on it and exactly `limit` of them pass.
const claimSql = `
  with ${counter('pair', 'pair', ':username', ':perPair')},
  ${counter('addr', 'address', `''`, ':perAddress', 'pair')},
  account as (
    insert into login_throttle as t (scope, username, address, attempts, next_at)
    select 'account', :username, '', 1, ${delay('1')} from addr
    on conflict (scope, username, address) do update set
      attempts = case when ${windowOver} then 1 else t.attempts + 1 end,
      window_start = case when ${windowOver} then now() else t.window_start end,
      next_at = case when ${windowOver} then ${delay('1')} else ${delay('t.attempts + 1')} end
    where ${windowOver} or t.attempts < :perAccount or t.next_at <= now() or (select attempts from pair) = 1
    returning attempts
  )
  select (select attempts from pair) as pair, (select attempts from addr) as address, (select attempts from account) as account`;

/** The name as counted: lower case, so `Office` and `office` share their attempts. */
const nameOf = (username: string) => username.toLowerCase();

/**
 * Counts one login attempt of `username` from `address` (the client's rate-limit bucket) before its
 * password is checked. A refused attempt gives back what it took from the counters it passed.
 */
export async function claimAttempt(db: Knex, rules: Rules, username: string, address: string): Promise<Claim> {
  const bindings = {
    username: nameOf(username),
    address,
    window: rules.windowMinutes * 60,
    perPair: rules.perPair,
    perAddress: rules.perAddress,
    perAccount: rules.perAccount,
    delay: rules.delaySeconds,
  };
  const { rows } = await db.raw<{ rows: { pair: number | null; address: number | null; account: number | null }[] }>(
    claimSql,
    bindings,
  );
  const { pair, address: addressCount, account } = oneRow(rows);
  if (pair !== null && addressCount !== null && account !== null)
    return { allowed: true, pair, address: addressCount, account };

  const giveBack = (scope: string, name: string) =>
    db('login_throttle')
      .where({ scope, username: name, address: scope === 'account' ? '' : address })
      .update({ attempts: db.raw('greatest(attempts - 1, 0)') });
  if (pair !== null) await giveBack('pair', bindings.username);
  if (addressCount !== null) await giveBack('address', '');
  return { allowed: false, waitSeconds: await secondsToWait(db, rules, bindings.username, address) };
}

/** How long the counter that refused an attempt still refuses: the end of its window, or the account's delay. */
async function secondsToWait(db: Knex, rules: Rules, username: string, address: string): Promise<number> {
  const { rows } = await db.raw<{ rows: { seconds: number | string | null }[] }>(
    `select greatest(0, max(case
        when scope = 'pair' and attempts >= :perPair then extract(epoch from window_start + :window * interval '1 second' - now())
        when scope = 'address' and attempts >= :perAddress then extract(epoch from window_start + :window * interval '1 second' - now())
        when scope = 'account' and window_start > now() - :window * interval '1 second' then extract(epoch from next_at - now())
      end)) as seconds
     from login_throttle
     where (scope = 'pair' and username = :username and address = :address)
        or (scope = 'address' and username = '' and address = :address)
        or (scope = 'account' and username = :username and address = '')`,
    { username, address, window: rules.windowMinutes * 60, perPair: rules.perPair, perAddress: rules.perAddress },
  );
  return Math.max(1, Math.ceil(Number(rows[0]?.seconds ?? 0)));
}

/**
 * A successful login: the account and this pair start afresh, and the address gets its attempt back
 * (a shared office address should not run out of logins that all worked).
 */
export async function loginSucceeded(db: Knex, username: string, address: string): Promise<void> {
  const name = nameOf(username);
  await db('login_throttle')
    .where({ username: name })
    .whereIn('scope', ['pair', 'account'])
    .where((q) => {
      q.where({ scope: 'account' }).orWhere({ address });
    })
    .delete();
  await db('login_throttle')
    .where({ scope: 'address', username: '', address })
    .update({ attempts: db.raw('greatest(attempts - 1, 0)') });
}

/** Counters whose window is over count nothing any more. */
export async function forgetOldAttempts(db: Knex, rules: Rules): Promise<void> {
  await db('login_throttle')
    .whereRaw(`window_start < now() - ? * interval '1 second'`, [rules.windowMinutes * 60])
    .delete();
}

/** Which limits this failed attempt has just reached, for the protocol. */
export function limitsReached(
  rules: Rules,
  claim: Extract<Claim, { allowed: true }>,
): ('pair' | 'address' | 'account')[] {
  return [
    ...(claim.pair === rules.perPair ? (['pair'] as const) : []),
    ...(claim.address === rules.perAddress ? (['address'] as const) : []),
    ...(claim.account >= rules.perAccount ? (['account'] as const) : []),
  ];
}

export interface LockedAccount {
  username: string;
  /** Attempts at the account from all addresses in the current window. */
  attempts: number;
  /** Addresses that used up their attempts at this account. */
  addresses: string[];
  /** When the last of its locks or its delay ends. */
  until: string;
}

/** Accounts (or the one named) that some address may not try any more, or that are slowed down, in this window. */
export async function lockedAccounts(db: Knex, rules: Rules, username?: string): Promise<LockedAccount[]> {
  const { rows } = await db.raw<{
    rows: { username: string; attempts: number | string; addresses: string[]; until: Date | string }[];
  }>(
    `select username,
        coalesce(max(attempts) filter (where scope = 'account'), 0) as attempts,
        coalesce(array_agg(address order by address) filter (where scope = 'pair' and attempts >= :perPair), '{}') as addresses,
        max(case when scope = 'account' then next_at else window_start + :window * interval '1 second' end) as until
      from login_throttle
      where scope in ('pair', 'account') and window_start > now() - :window * interval '1 second'
        and (cast(:username as text) is null or username = :username)
        and attempts >= case scope when 'pair' then cast(:perPair as integer) else cast(:perAccount as integer) end
      group by username
      order by username`,
    {
      window: rules.windowMinutes * 60,
      perPair: rules.perPair,
      perAccount: rules.perAccount,
      username: username === undefined ? null : nameOf(username),
    },
  );
  return rows.map((row) => ({
    username: row.username,
    attempts: Number(row.attempts),
    addresses: row.addresses,
    until: new Date(row.until).toISOString(),
  }));
}

/** Staff lift an account's locks and delays from every address; answers whether there were any. */
export async function unlockAccount(db: Knex, username: string): Promise<boolean> {
  const removed = await db('login_throttle')
    .where({ username: nameOf(username) })
    .whereIn('scope', ['pair', 'account'])
    .delete()
    .returning('scope');
  return removed.length > 0;
}
