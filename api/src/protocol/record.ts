import type { Knex } from 'knex';
import { hotRows } from '../db/connection.ts';

/** Keys whose values must never be stored: a protocol is read by staff and kept for long. */
const secretKey = /password|token|secret|hash|authorization|cookie/i;
const REDACTED = '[redacted]';

/** A copy of a value with every secret-looking key's value replaced, at any depth. */
export function redact<T>(value: T): T {
  if (Array.isArray(value)) return value.map(redact) as T;
  if (value && typeof value === 'object' && !(value instanceof Date)) {
    return Object.fromEntries(
      Object.entries(value).map(([key, inner]) => [key, secretKey.test(key) ? REDACTED : redact(inner)]),
    ) as T;
  }
  return value;
}

export interface ProtocolEntry {
  action: string;
  actorSub?: string | null;
  actorName?: string | null;
  recordType?: string | null;
  recordId?: string | number | null;
  /** Changed fields only: `{ field: { before, after } }`. */
  changes?: Record<string, { before: unknown; after: unknown }> | null;
  details?: Record<string, unknown> | null;
}

/**
 * The protocol's insert of one entry, secrets redacted: run by writeEntry, or held as a CTE by a
 * statement that writes the entry together with the change it records.
 */
export function protocolInsert(entry: ProtocolEntry): { sql: string; bindings: Knex.Value[] } {
  return {
    sql: `insert into protocol_entries (action, actor_sub, actor_name, record_type, record_id, changes, details)
     values (?, ?, ?, ?, ?, ?, ?)`,
    bindings: [
      entry.action,
      entry.actorSub ?? null,
      entry.actorName ?? null,
      entry.recordType ?? null,
      entry.recordId == null ? null : String(entry.recordId),
      entry.changes ? JSON.stringify(redact(entry.changes)) : null,
      entry.details ? JSON.stringify(redact(entry.details)) : null,
    ],
  };
}

/** Appends one entry to the protocol, secrets redacted. */
export async function writeEntry(db: Knex | Knex.Transaction, entry: ProtocolEntry): Promise<void> {
  // Every booking writes one (hotRows: a prepared statement on PostgreSQL).
  const { sql, bindings } = protocolInsert(entry);
  await hotRows(db, sql, bindings);
}

/** What the protocol knows of a system event. */
export interface SystemEvent {
  action: string;
  actor?: string | null;
  recordType?: string;
  recordId?: string | number | null;
  details?: Record<string, unknown>;
}

/** A system event as the protocol's entry (recordEvent). */
export const systemEntry = (event: SystemEvent): ProtocolEntry => ({
  action: event.action,
  actorName: event.actor,
  recordType: event.recordType,
  recordId: event.recordId,
  details: event.details,
});

/**
 * A system event (failed login, payment flagged for staff, …). `actor` is the name the event is
 * about, e.g. the username that failed to log in; it need not be an existing account.
 */
export async function recordEvent(db: Knex | Knex.Transaction, event: SystemEvent): Promise<void> {
  await writeEntry(db, systemEntry(event));
}
