import type { Knex } from 'knex';

/** Failed logins within the window that block further attempts, per username and per address. */
export const throttleRules = { windowMinutes: 15, perAccount: 5, perAddress: 20 };

const window = `interval '${throttleRules.windowMinutes} minutes'`;

/**
 * Whole minutes until another attempt is allowed, 0 when it is allowed now. Counted in the database
 * (with its clock), so every API process sees the same failures.
 */
export async function minutesLocked(db: Knex, username: string, address: string): Promise<number> {
  // Once the limit-th most recent failure leaves the window, fewer than the limit remain in it.
  const waitFor = async (column: 'username' | 'address', value: string, limit: number): Promise<number> => {
    const row = await db('login_failures')
      .where(column, value)
      .whereRaw(`at > now() - ${window}`)
      .orderBy('at', 'desc')
      .offset(limit - 1)
      .first<{ minutes: number } | undefined>(db.raw(`ceil(extract(epoch from at + ${window} - now()) / 60)::int as minutes`));
    return row ? Math.max(1, row.minutes) : 0;
  };
  return Math.max(
    await waitFor('username', username.toLowerCase(), throttleRules.perAccount),
    await waitFor('address', address, throttleRules.perAddress),
  );
}

export async function recordFailure(db: Knex, username: string, address: string): Promise<void> {
  await db('login_failures').insert({ username: username.toLowerCase(), address });
  await db('login_failures').whereRaw(`at < now() - ${window}`).delete();
}

/** A successful login starts the account's count afresh; the address keeps its count. */
export async function clearFailures(db: Knex, username: string): Promise<void> {
  await db('login_failures').where({ username: username.toLowerCase() }).delete();
}
