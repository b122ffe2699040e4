import type { Knex } from 'knex';
import { pgCode } from '../db/connection.ts';
import { conflictError, invalidError, notFoundError } from '../foundations/errors.ts';
import {
  createVendorLogin,
  removeVendorLogin,
  syncVendorLogin,
  type VendorLogin,
} from '../identity/accounts/queries.ts';
import { getSettingsRow } from '../settings/queries.ts';
import type { VendorInput } from './schema.ts';
import { oneRow } from '../foundations/one-row.ts';
import { tr } from '../language/messages.ts';
import { toIso } from '../foundations/dates.ts';

type Db = Knex | Knex.Transaction;

export interface VendorRow {
  id: number;
  license_id: string;
  first_name: string;
  last_name: string;
  email: string | null;
  language: 'de' | 'en';
  telephone: string;
  address: string;
  post_code: string;
  location: string;
  longitude: number | null;
  latitude: number | null;
  working_time: string;
  registration_date: string | null;
  vendor_since: string | null;
  has_bank_account: boolean;
  has_smartphone: boolean;
  online_map: boolean;
  account_proof_url: string | null;
  debt: string;
  is_disabled: boolean;
  created_at: Date | string;
  updated_at: Date | string;
}

export function vendorToApi(row: VendorRow) {
  return {
    id: row.id,
    licenseId: row.license_id,
    firstName: row.first_name,
    lastName: row.last_name,
    email: row.email,
    language: row.language,
    telephone: row.telephone,
    address: row.address,
    postCode: row.post_code,
    location: row.location,
    longitude: row.longitude,
    latitude: row.latitude,
    workingTime: row.working_time,
    registrationDate: row.registration_date,
    vendorSince: row.vendor_since,
    hasBankAccount: row.has_bank_account,
    hasSmartphone: row.has_smartphone,
    onlineMap: row.online_map,
    accountProofUrl: row.account_proof_url,
    debt: row.debt,
    isDisabled: row.is_disabled,
    createdAt: toIso(row.created_at),
    updatedAt: toIso(row.updated_at),
  };
}

function toRow(input: VendorInput) {
  return {
    license_id: input.licenseId,
    first_name: input.firstName,
    last_name: input.lastName,
    email: input.email,
    language: input.language,
    telephone: input.telephone,
    address: input.address,
    post_code: input.postCode,
    location: input.location,
    longitude: input.longitude,
    latitude: input.latitude,
    working_time: input.workingTime,
    registration_date: input.registrationDate,
    vendor_since: input.vendorSince,
    has_bank_account: input.hasBankAccount,
    has_smartphone: input.hasSmartphone,
    online_map: input.onlineMap,
    account_proof_url: input.accountProofUrl,
    debt: input.debt,
    is_disabled: input.isDisabled,
  };
}

/** Every vendor, deleted ones included; callers decide. */
export function allVendors(db: Db): Knex.QueryBuilder {
  // pg turns `date` into a Date at local midnight, which shifts the day in UTC; text keeps it exact.
  return db('vendors').select(
    'id',
    'license_id',
    'first_name',
    'last_name',
    'email',
    'language',
    'telephone',
    'address',
    'post_code',
    'location',
    'longitude',
    'latitude',
    'working_time',
    db.raw(`to_char(registration_date, 'YYYY-MM-DD') as registration_date`),
    db.raw(`to_char(vendor_since, 'YYYY-MM-DD') as vendor_since`),
    'has_bank_account',
    'has_smartphone',
    'online_map',
    'account_proof_url',
    'debt',
    'is_disabled',
    'created_at',
    'updated_at',
  );
}

/** Vendors that are not deleted: the only ones the API ever shows. */
export const liveVendors = (db: Db) => allVendors(db).whereNull('deleted_at');

export async function findVendor(db: Db, id: number): Promise<VendorRow | undefined> {
  return liveVendors(db).where({ id }).first<VendorRow | undefined>();
}

/** The vendor a counter or payout request names by licence ID ("vendor"), or a refusal that says why. */
export async function vendorOfLicence(db: Knex, licenseId: unknown): Promise<VendorRow> {
  if (typeof licenseId !== 'string' || !licenseId.trim()) {
    throw invalidError('Please name the vendor by licence ID ("vendor").', { vendor: 'Please give a licence ID.' });
  }
  const vendor = await findVendorByLicense(db, licenseId.trim());
  if (!vendor)
    throw notFoundError(tr('There is no vendor with the licence ID "{licenseId}".', { licenseId: licenseId.trim() }));
  return vendor;
}

export const vendorNotFound = (id: number) => notFoundError(tr('There is no vendor with the id {id}.', { id }));

/** Guards the sub-resources (locations, comments): a deleted vendor has none to show or change. */
export async function requireLiveVendor(db: Db, id: number): Promise<void> {
  if (!(await db('vendors').where({ id }).whereNull('deleted_at').first('id'))) throw vendorNotFound(id);
}

/** Live vendor by licence id, case-insensitively (as the unique index compares them). */
export async function findVendorByLicense(db: Db, licenseId: string): Promise<VendorRow | undefined> {
  return liveVendors(db).whereRaw('lower(license_id) = lower(?)', [licenseId]).first<VendorRow | undefined>();
}

/**
 * Sorts licence ids as people count them (DEMO-2 before DEMO-10): the text before the trailing
 * number, then that number. Zero-padding the number to the id's maximum length (40) compares it as
 * text, so the key is one expression that any list can order by, on PGlite and PostgreSQL alike.
 */
export const licenseSortKey = (column: string) =>
  `lower(regexp_replace(${column}, '[0-9]+$', '')) || lpad(coalesce(substring(${column} from '[0-9]+$'), ''), 40, '0')`;

/** Escapes LIKE wildcards so a search for "50%" means the text, not a pattern. */
function containsPattern(text: string): string {
  return `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

/**
 * Letters folded for a search: "Zoë", "ZOE" and "zoe" are one; "Straße" is "strasse". The pairs are
 * made once from Unicode's own decomposition (NFD, marks dropped) over Latin-1 and Latin Extended-A,
 * and applied in SQL with translate() and replace(), which PostgreSQL and PGlite both have in every
 * locale (lower() folds only ASCII under the C locale, so the upper-case letters are in the table too).
 */
const fold = (text: string) =>
  text
    .normalize('NFD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(/ß/g, 'ss')
    .replace(/æ/g, 'ae')
    .replace(/œ/g, 'oe')
    .replace(/ø/g, 'o')
    .replace(/ł/g, 'l')
    .replace(/đ/g, 'd');
const foldTable = (() => {
  let from = '';
  let to = '';
  const many: [string, string][] = [];
  for (let code = 0x41; code <= 0x17f; code++) {
    const letter = String.fromCharCode(code);
    const folded = fold(letter);
    if (folded === letter || !/^[a-z]+$/.test(folded)) continue;
    if (folded.length === 1) {
      from += letter;
      to += folded;
    } else many.push([letter, folded]);
  }
  return { from, to, many };
})();
const folded = (expression: string) =>
  foldTable.many.reduce(
    (sql, [letter, text]) => `replace(${sql}, '${letter}', '${text}')`,
    `translate(${expression}, '${foldTable.from}', '${foldTable.to}')`,
  );

/** Names, licence id, e-mail and place, by any part, without regard to case or accents. */
export function searchVendors(query: Knex.QueryBuilder, text: string): void {
  const pattern = containsPattern(fold(text.trim()));
  query.where((q) => {
    for (const expression of [
      'first_name',
      'last_name',
      `first_name || ' ' || last_name`,
      'license_id',
      'email',
      'location',
      'address',
    ]) {
      q.orWhereRaw(`${folded(`coalesce(${expression}, '')`)} like ? escape '\\'`, [pattern]);
    }
  });
}

/** The licence id is unique among live vendors; the index decides, so two requests cannot race. */
async function withUniqueLicense<T>(licenseId: string, write: () => Promise<T>): Promise<T> {
  try {
    return await write();
  } catch (error) {
    if (pgCode(error) !== '23505') throw error;
    throw conflictError(tr('The licence ID "{licenseId}" is already taken by another vendor.', { licenseId }), {
      licenseId: 'This licence ID is already taken.',
    });
  }
}

/** `<licenseId><postfix>`; the postfix is stored with or without its '@'. */
function defaultEmail(licenseId: string, postfix: string): string | null {
  const domain = postfix.trim().replace(/^@/, '');
  return domain ? `${licenseId}@${domain}` : null;
}

export async function createVendor(db: Db, input: VendorInput): Promise<{ vendor: VendorRow; login: VendorLogin }> {
  const email = input.email ?? defaultEmail(input.licenseId, (await getSettingsRow(db)).vendor_email_postfix);
  // The vendor and its login exist together or not at all.
  return db.transaction(async (trx) => {
    const { id } = oneRow(
      await withUniqueLicense(input.licenseId, () =>
        trx('vendors')
          .insert({ ...toRow(input), email })
          .returning<{ id: number }[]>('id'),
      ),
    );
    const vendor = (await findVendor(trx, id))!;
    return { vendor, login: await createVendorLogin(trx, vendor) };
  });
}

export async function updateVendor(db: Db, id: number, input: VendorInput): Promise<VendorRow | undefined> {
  return db.transaction(async (trx) => {
    const before = await liveVendors(trx).where({ id }).forUpdate().first<VendorRow | undefined>();
    if (!before) return undefined;
    await withUniqueLicense(input.licenseId, () =>
      trx('vendors')
        .where({ id })
        .update({ ...toRow(input), updated_at: trx.fn.now() }),
    );
    const after = (await findVendor(trx, id))!;
    await syncVendorLogin(trx, before, after);
    return after;
  });
}

/** Deactivates or reactivates a vendor; the login follows, as after a full update. */
export async function setVendorDisabled(db: Db, id: number, isDisabled: boolean): Promise<VendorRow | undefined> {
  return db.transaction(async (trx) => {
    const before = await liveVendors(trx).where({ id }).forUpdate().first<VendorRow | undefined>();
    if (!before) return undefined;
    if (before.is_disabled === isDisabled) return before;
    await trx('vendors').where({ id }).update({ is_disabled: isDisabled, updated_at: trx.fn.now() });
    const after = (await findVendor(trx, id))!;
    await syncVendorLogin(trx, before, after);
    return after;
  });
}

/** Soft delete: money history keeps pointing at the vendor, and the licence id becomes free again. */
export async function deleteVendor(db: Db, id: number): Promise<VendorRow | undefined> {
  return db.transaction(async (trx) => {
    const deleted = await trx('vendors')
      .where({ id })
      .whereNull('deleted_at')
      .update({ deleted_at: trx.fn.now(), updated_at: trx.fn.now() })
      .returning('id');
    if (!deleted.length) return undefined;
    await removeVendorLogin(trx, id);
    return allVendors(trx).where({ id }).first<VendorRow | undefined>();
  });
}
