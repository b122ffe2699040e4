import type { Knex } from 'knex';
import { invalidError } from '../errors.ts';
import { toIso } from '../vendors/queries.ts';
import { tr } from '../language/messages.ts';
import { type ListSpec, periodFilters } from '../lists.ts';
import type { Language } from '../language/messages.ts';
import { pseudonymIn } from '../privacy/anonymise.ts';
import { ERASED } from '../privacy/scrub.ts';

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
function recordName(row: EntryRow, language: Language) {
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

function entryToApi(row: EntryRow, language: Language) {
  return {
    id: row.id,
    at: toIso(row.at),
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
 * The entries with the names of what they are about, joined when read: a renamed product or vendor
 * reads under its present name, and an anonymised vendor under the pseudonym only. Wrapped, so the
 * list's filters and sorts see the protocol's own columns alone.
 */
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

export const protocolEntries = (db: Knex) =>
  db
    .from(
      db('protocol_entries as e')
        .leftJoin('items as ri', (on) => {
          void on.on(db.raw(`e.record_type = 'item' and ri.id::text = e.record_id`));
        })
        .leftJoin('payouts as rp', (on) => {
          void on.on(db.raw(`e.record_type = 'payout' and rp.id::text = e.record_id`));
        })
        .leftJoin('vendors as rv', (on) => {
          void on.on(
            db.raw(`(e.record_type = 'vendor' and rv.id::text = e.record_id)
              or (e.record_type in ('vendor_location', 'vendor_comment') and rv.id::text = e.details->>'vendorId')
              or (e.record_type = 'payout' and rv.id = rp.vendor_id)`),
          );
        })
        .select(
          'e.*',
          db.raw(`coalesce(ri.name, trim(rv.first_name || ' ' || rv.last_name)) as named_name`),
          'rv.license_id as named_license_id',
          'rp.amount as named_amount',
        )
        .as('protocol_entries'),
    )
    .select('*');

function text(name: string, value: unknown): string {
  if (typeof value !== 'string' && typeof value !== 'number')
    throw invalidError(tr('The filter "{name}" must be text.', { name }));
  return String(value).trim();
}

export const protocolList: ListSpec<EntryRow, ReturnType<typeof entryToApi>> = {
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
