import type { Knex } from 'knex';
import { removeVendorLogin } from '../identity/accounts/queries.ts';
import { receiptNaming } from '../orders/deliveries.ts';
import { ERASED, pseudonym } from '../language/erased.ts';
import { scrubJsonColumns, type PersonalValues } from './scrub.ts';

type Db = Knex | Knex.Transaction;

interface PersonalRow {
  license_id: string | null;
  first_name: string;
  last_name: string;
  email: string | null;
  telephone: string;
  address: string;
  location: string;
  working_time: string;
  debt: string;
  account_proof_url: string | null;
  anonymised_at: Date | null;
}

/** Protocol entries about the vendor itself, its locations and its comments. */
function entriesAboutVendor(db: Db, vendorId: number): Knex.QueryBuilder {
  return db('protocol_entries').where((q) => {
    void q.where({ record_type: 'vendor', record_id: String(vendorId) }).orWhere((sub) => {
      void sub
        .whereIn('record_type', ['vendor_location', 'vendor_comment'])
        .whereRaw(`details->>'vendorId' = ?`, [String(vendorId)]);
    });
  });
}

/** Each changed field stays named (so a reader sees that something changed), its values do not. */
const erasedChanges = (changes: Record<string, unknown>) =>
  Object.fromEntries(Object.keys(changes).map((field) => [field, { before: ERASED, after: ERASED }]));

export type AnonymiseOutcome = 'anonymised' | 'not found' | 'already anonymised';

/**
 * Erases everything personal about a vendor and keeps the row their bookings point at, under a
 * pseudonym. Runs inside the caller's transaction, which must hold the vendor's money still (see
 * ledger/vendor.ts): the ledger, payouts and counter visits are kept as booked (§147 AO).
 */
export async function anonymiseVendor(trx: Knex.Transaction, vendorId: number): Promise<AnonymiseOutcome> {
  const vendor = await trx('vendors')
    .where({ id: vendorId })
    .first<PersonalRow | undefined>(
      'license_id',
      'first_name',
      'last_name',
      'email',
      'telephone',
      'address',
      'location',
      'working_time',
      'debt',
      'account_proof_url',
      'anonymised_at',
    );
  if (!vendor) return 'not found';
  if (vendor.anonymised_at) return 'already anonymised';
  const account = await trx('accounts')
    .where({ vendor_id: vendorId })
    .first<{ id: number; username: string; email: string | null } | undefined>('id', 'username', 'email');
  const locations: { name: string; address: string }[] = await trx('vendor_locations')
    .where({ vendor_id: vendorId })
    .select('name', 'address');
  const comments: { comment: string }[] = await trx('vendor_comments').where({ vendor_id: vendorId }).select('comment');
  const personal: PersonalValues = {
    contained: [
      `${vendor.first_name} ${vendor.last_name}`.trim(),
      `${vendor.last_name} ${vendor.first_name}`.trim(),
      vendor.email ?? '',
      account?.email ?? '',
      vendor.telephone,
      vendor.address,
      vendor.location,
      vendor.debt,
      vendor.account_proof_url ?? '',
      ...locations.flatMap((l) => [l.address]),
      ...comments.map((c) => c.comment),
    ].filter((value) => value.includes(' ') || value.includes('@') || /\d/.test(value) || value.length >= 8),
    whole: [vendor.first_name, vendor.last_name, vendor.working_time, ...locations.map((l) => l.name)],
  };

  // The login: the account, its sessions and tokens, and the throttle rows counted under its name.
  await removeVendorLogin(trx, vendorId);
  const names = [vendor.license_id, account?.username].filter((n): n is string => !!n).map((n) => n.toLowerCase());
  if (names.length) await trx('login_throttle').whereIn('username', names).delete();

  await trx('vendor_locations').where({ vendor_id: vendorId }).delete();
  await trx('vendor_comments').where({ vendor_id: vendorId }).delete();
  await trx('vendors')
    .where({ id: vendorId })
    .update({
      license_id: null,
      first_name: pseudonym(vendorId),
      last_name: '',
      email: null,
      language: 'de',
      telephone: '',
      address: '',
      post_code: '',
      location: '',
      longitude: null,
      latitude: null,
      working_time: '',
      registration_date: null,
      vendor_since: null,
      has_bank_account: false,
      has_smartphone: false,
      online_map: false,
      account_proof_url: null,
      debt: '',
      is_disabled: true,
      deleted_at: trx.raw('coalesce(deleted_at, now())'),
      anonymised_at: trx.fn.now(),
      updated_at: trx.fn.now(),
    });

  // Receipts by e-mail of the vendor's sales name the vendor: they name the pseudonym instead.
  const receipts: { id: number; text: string; locale: 'de' | 'en' }[] = await trx('outbox as m')
    .join('orders as o', 'o.id', 'm.order_id')
    .where({ 'o.vendor_id': vendorId, 'm.kind': 'receipt' })
    .select('m.id', 'm.text', 'o.locale');
  for (const mail of receipts) {
    await trx('outbox')
      .where({ id: mail.id })
      .update({ text: receiptNaming(mail.text, mail.locale, pseudonym(vendorId)) });
  }

  // The protocol keeps old values: those about this vendor lose them all, other entries every copy
  // of the vendor's personal values (a name in a payout's details, an e-mail address in a login event).
  const about: { id: number; changes: Record<string, unknown> | null }[] = await entriesAboutVendor(
    trx,
    vendorId,
  ).select('id', 'changes');
  for (const entry of about) {
    if (!entry.changes) continue;
    await trx('protocol_entries')
      .where({ id: entry.id })
      .update({ changes: JSON.stringify(erasedChanges(entry.changes)) });
  }
  if (account) {
    await trx('protocol_entries')
      .where({ actor_sub: String(account.id) })
      .update({ actor_name: pseudonym(vendorId) });
  }
  // Failed logins name the login as typed (the licence id) and the address they came from: the name
  // goes, so the freed licence id does not carry this vendor's history to a successor.
  if (names.length) {
    await trx('protocol_entries')
      .whereNull('actor_sub')
      .whereIn('action', ['login.failed', 'login.locked'])
      .whereRaw('lower(actor_name) = any(?::text[])', [names])
      .update({ actor_name: pseudonym(vendorId) });
  }
  await scrubJsonColumns(
    trx,
    [
      { table: 'protocol_entries', column: 'changes', key: ['id'] },
      { table: 'protocol_entries', column: 'details', key: ['id'] },
    ],
    personal,
  );
  return 'anonymised';
}
