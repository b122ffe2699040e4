import type { Knex } from 'knex';
import { invalidError } from '../foundations/errors.ts';
import { tr } from '../language/messages.ts';
import { type ListSpec, periodFilters } from '../foundations/lists.ts';
import type { Language } from '../language/messages.ts';
import { ERASED, pseudonymIn } from '../language/erased.ts';

interface EntryRow {
  id: number;
  at: Date;
  actor_sub: string | null;
  actor_name: string | null;
  action: string;
  record_type: string | null;
  record_id: string | null;
  changes: Record<string, { before: unknown; after: unknown }> | null;
  details: Record<string, unknown> | null;
  /** The record's (or, for a location, comment or payout, its vendor's) name as it is now. */
  named_name: string | null;
  named_license_id: string | null;
  /** A payout's amount in cents. */
  named_amount: string | number | null;
}

type Changes = NonNullable<EntryRow['changes']>;

/** Who or what an entry is about, as it is named now (the pseudonym for an anonymised vendor). */
interface RecordName {
  name: string | null;
  licenseId: string | null;
  /** A payout's amount in cents. */
  amount: number | null;
}

/** A protocol entry as GET /api/protocol answers it; the back office and the tests read it by this type. */
export interface ProtocolEntry {
  id: number;
  at: string;
  userSub: string | null;
  username: string | null;
  action: string;
  recordType: string | null;
  recordId: string | null;
  changes: Changes | null;
  details: Record<string, unknown> | null;
  recordName: RecordName | null;
}

/** A value the entry kept itself, unless anonymisation erased it. */
function kept(changes: Changes | null, field: string): string | null {
  const change = changes?.[field];
  const value = change?.before ?? change?.after;
  return typeof value === 'string' && value !== ERASED && value.trim() ? value.trim() : null;
}

/**
 * Who or what the entry is about, so the protocol reads "Gelöscht: Maria Muster (DEMO-33)": the
 * record as it is now; a deleted one by the values its entry kept. An anonymised vendor is named by
 * the pseudonym (docs/privacy.md), never by an older entry's values.
 */
function recordName(row: EntryRow, language: Language): RecordName | null {
  let name = row.named_name?.trim() || null;
  let licenseId = row.named_license_id;
  if (name === null && row.record_type === 'vendor') {
    name = [kept(row.changes, 'firstName'), kept(row.changes, 'lastName')].filter(Boolean).join(' ') || null;
    licenseId = kept(row.changes, 'licenseId');
  }
  if (name === null && row.record_type === 'item') name = kept(row.changes, 'name');
  const amount = row.named_amount === null ? null : Number(row.named_amount);
  if (name === null && amount === null) return null;
  return { name: name && pseudonymIn(name, language), licenseId, amount };
}

function entryToApi(row: EntryRow, language: Language): ProtocolEntry {
  return {
    id: row.id,
    at: new Date(row.at).toISOString(),
    userSub: row.actor_sub,
    username: row.actor_name,
    action: row.action,
    recordType: row.record_type,
    recordId: row.record_id,
    changes: row.changes,
    details: row.details,
    recordName: recordName(row, language),
  };
}

/**
 * Who created a record, as its protocol entry says: the column expression `created_by` for a select
 * from `table`, whose rows keep no author of their own. Null for rows from before the protocol or
 * from the seeds. The entry is found through the protocol's (record_type, record_id) index.
 */
export const createdBy = (db: Knex, recordType: string, table: string) =>
  db.raw(
    `(select p.actor_name from protocol_entries p
      where p.record_type = ? and p.record_id = ??::text and p.action = 'create'
      order by p.id limit 1) as created_by`,
    [recordType, `${table}.id`],
  );

/** An id of ours in a text column: an integer the primary key's index finds, else null (no cast error). */
const idIn = (text: string) => `case when ${text} ~ '^[0-9]{1,9}$' then (${text})::integer end`;

/** The vendor an entry is about: the vendor itself, the owner of a location or comment, the payee. */
const vendorOfEntry = `case
  when e.record_type = 'vendor' then ${idIn('e.record_id')}
  when e.record_type in ('vendor_location', 'vendor_comment') then ${idIn("e.details->>'vendorId'")}
  when e.record_type = 'payout' then (select p.vendor_id from payouts p where p.id = ${idIn('e.record_id')})
end`;

/**
 * The entries with the names of what they are about, looked up when read: a renamed product or
 * vendor reads under its present name, and an anonymised vendor under the pseudonym only. Subqueries
 * in the select, not joins, so the list's count reads the protocol alone and each shown entry costs
 * a few primary-key lookups.
 */
export const protocolEntries = (db: Knex) =>
  db('protocol_entries as e').select(
    'e.*',
    db.raw(`case
      when e.record_type = 'item' then (select i.name from items i where i.id = ${idIn('e.record_id')})
      else (select trim(v.first_name || ' ' || v.last_name) from vendors v where v.id = ${vendorOfEntry})
    end as named_name`),
    db.raw(`(select v.license_id from vendors v where v.id = ${vendorOfEntry}) as named_license_id`),
    db.raw(`case when e.record_type = 'payout'
      then (select p.amount from payouts p where p.id = ${idIn('e.record_id')}) end as named_amount`),
  );

function text(name: string, value: unknown): string {
  if (typeof value !== 'string' && typeof value !== 'number')
    throw invalidError(tr('The filter "{name}" must be text.', { name }));
  return String(value).trim();
}

export const protocolList: ListSpec<EntryRow, ProtocolEntry> = {
  resource: 'protocol',
  sortable: { id: 'id', at: 'at', username: 'lower(actor_name)', action: 'action', recordType: 'record_type' },
  defaultSort: ['at', 'DESC'],
  idColumn: 'id',
  filters: {
    // The username as shown, in any case, or the provider's subject id.
    user: (query, value) => {
      const user = text('user', value);
      query.where((q) => {
        q.whereRaw('lower(actor_name) = lower(?)', [user]).orWhere('actor_sub', user);
      });
    },
    recordType: (query, value) => query.where('record_type', text('recordType', value)),
    recordId: (query, value) => query.where('record_id', text('recordId', value)),
    action: (query, value) => query.where('action', text('action', value)),
    ...periodFilters('at'),
  },
  toApi: entryToApi,
};
