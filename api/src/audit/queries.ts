import type { Knex } from 'knex';
import { invalidError } from '../errors.ts';
import { toIso } from '../vendors/queries.ts';
import { tr } from '../language/messages.ts';
import { type ListSpec, periodFilters } from '../lists.ts';

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
}

function entryToApi(row: EntryRow) {
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
  };
}

export const protocolEntries = (db: Knex) => db('protocol_entries').select('*');

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
