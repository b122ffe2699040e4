import type { Knex } from 'knex';
import { pgCode } from '../../db/connection.ts';
import { conflictError } from '../../foundations/errors.ts';
import { revokeAccountState } from '../provider/adapter.ts';
import { generatePassword, hashPassword } from './passwords.ts';
import { oneRow } from '../../foundations/one-row.ts';
import { tr } from '../../language/messages.ts';

type Db = Knex | Knex.Transaction;

export interface AccountRow {
  id: number;
  username: string;
  email: string | null;
  password_hash: string | null;
  groups: string[];
  disabled: boolean;
  vendor_id: number | null;
}

/** The OpenID subject of an account: its id, as text. */
export const subjectOf = (account: Pick<AccountRow, 'id'>): string => String(account.id);

/**
 * Accounts that may log in right now: not disabled, and a vendor's login only while that vendor is
 * active and not deleted. Every check of a login, a refresh or an access token goes through here, so
 * deactivating a vendor takes effect at once.
 */
function activeAccounts(db: Db): Knex.QueryBuilder {
  return db('accounts as a')
    .leftJoin('vendors as v', 'v.id', 'a.vendor_id')
    .where('a.disabled', false)
    .where((q) => {
      q.whereNull('a.vendor_id').orWhere((v) => {
        v.where('v.is_disabled', false).whereNull('v.deleted_at');
      });
    })
    .select('a.id', 'a.username', 'a.email', 'a.password_hash', 'a.groups', 'a.disabled', 'a.vendor_id');
}

export async function findActiveAccount(db: Db, sub: string): Promise<AccountRow | undefined> {
  if (!/^\d{1,9}$/.test(sub)) return undefined;
  return activeAccounts(db).where('a.id', Number(sub)).first<AccountRow | undefined>();
}

export async function findActiveAccountByUsername(db: Db, username: string): Promise<AccountRow | undefined> {
  return activeAccounts(db).whereRaw('lower(a.username) = lower(?)', [username]).first<AccountRow | undefined>();
}

const usernameTaken = (username: string) =>
  conflictError(tr('The login name "{username}" is already taken by another account.', { username }), {
    licenseId: 'This licence ID is already taken as a login name.',
  });

/** Usernames are unique regardless of case; the index decides, so two requests cannot race. */
async function withUniqueUsername<T>(username: string, write: () => Promise<T>): Promise<T> {
  try {
    return await write();
  } catch (error) {
    if (pgCode(error) === '23505') throw usernameTaken(username);
    throw error;
  }
}

export interface NewAccount {
  username: string;
  email: string | null;
  /** Without one the account exists but cannot log in. */
  password?: string;
  groups: string[];
  vendorId?: number | null;
  disabled?: boolean;
}

export async function createAccount(db: Db, account: NewAccount): Promise<number> {
  const { id } = oneRow(
    await withUniqueUsername(account.username, async () =>
      db('accounts')
        .insert({
          username: account.username,
          email: account.email,
          password_hash: account.password === undefined ? null : await hashPassword(account.password),
          groups: account.groups,
          vendor_id: account.vendorId ?? null,
          disabled: account.disabled ?? false,
        })
        .returning<{ id: number }[]>('id'),
    ),
  );
  return id;
}

/** What staff see once after creating a vendor: never stored, never shown again. */
export interface VendorLogin {
  username: string;
  oneTimePassword: string;
}

interface VendorFacts {
  id: number;
  license_id: string;
  email: string | null;
  is_disabled: boolean;
}

/** A new vendor's own login: the licence id as username, a random password to hand over. */
export async function createVendorLogin(trx: Db, vendor: VendorFacts): Promise<VendorLogin> {
  const oneTimePassword = generatePassword();
  await createAccount(trx, {
    username: vendor.license_id,
    email: vendor.email,
    password: oneTimePassword,
    groups: ['vendor'],
    vendorId: vendor.id,
    disabled: vendor.is_disabled,
  });
  return { username: vendor.license_id, oneTimePassword };
}

/**
 * Follows a change of the vendor: a new licence id renames the login (when it was named after the
 * old one), deactivation blocks it and ends its sessions and refresh tokens, reactivation allows it.
 */
export async function syncVendorLogin(trx: Db, before: VendorFacts, after: VendorFacts): Promise<void> {
  const account = (await trx('accounts').where({ vendor_id: after.id }).forUpdate().first()) as AccountRow | undefined;
  if (!account) return;
  const changes: Partial<Record<keyof AccountRow, unknown>> = {};
  if (before.license_id !== after.license_id && account.username.toLowerCase() === before.license_id.toLowerCase()) {
    changes.username = after.license_id;
  }
  if (before.email !== after.email) changes.email = after.email;
  if (after.is_disabled !== account.disabled) changes.disabled = after.is_disabled;
  if (Object.keys(changes).length === 0) return;
  await withUniqueUsername(after.license_id, () =>
    trx('accounts')
      .where({ id: account.id })
      .update({ ...changes, updated_at: trx.fn.now() }),
  );
  if (after.is_disabled) await revokeAccountState(trx, subjectOf(account));
}

/** A deleted vendor keeps no login: its licence id (the username) becomes free for a successor. */
export async function removeVendorLogin(trx: Db, vendorId: number): Promise<void> {
  const removed = await trx('accounts').where({ vendor_id: vendorId }).delete().returning<{ id: number }[]>('id');
  for (const account of removed) await revokeAccountState(trx, subjectOf(account));
}

/**
 * Gives an account a new random password (returned once, only its hash stored) and ends its
 * sessions, so a forgotten or leaked password is replaced without anyone else learning the new one.
 */
export async function resetPassword(db: Knex, username: string): Promise<string | undefined> {
  const password = generatePassword();
  const hash = await hashPassword(password);
  return db.transaction(async (trx) => {
    const [account] = await trx('accounts')
      .whereRaw('lower(username) = lower(?)', [username])
      .update({ password_hash: hash, updated_at: trx.fn.now() })
      .returning<{ id: number }[]>('id');
    if (!account) return undefined;
    await revokeAccountState(trx, subjectOf(account));
    return password;
  });
}
