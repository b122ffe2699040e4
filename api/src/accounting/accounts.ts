import type { Knex } from 'knex';
import { accountTurnovers } from '../ledger/queries.ts';
import { licenseSortKey } from '../vendors/queries.ts';
import { accountKindName, accountName, type NamedAccount } from './names.ts';
import { type Language } from '../language/messages.ts';
import type { CsvColumn } from '../foundations/csv.ts';
import type { Period } from '../foundations/period.ts';

type Db = Knex | Knex.Transaction;

/** One ledger account over a period, as the bookkeeper carries it: opening + received − sent = closing. */
export interface AccountStatement {
  accountId: number;
  kind: string;
  vendorId: number | null;
  licenseId: string | null;
  name: string;
  /** Everything the account received minus everything it sent before the period. */
  opening: number;
  received: number;
  sent: number;
  closing: number;
}

interface StatementRow extends NamedAccount {
  id: number;
  vendor_id: number | null;
  opening: number;
  received: number;
  sent: number;
}

/**
 * Every account's statement for a period (open ends: from the first row, up to now). Double entry
 * makes the openings and the closings each sum to zero, and what was received equal what was sent.
 */
export async function accountStatements(db: Db, period: Period, language: Language): Promise<AccountStatement[]> {
  const from = period.from ?? '-infinity';
  const to = period.to ?? 'infinity';
  const { rows } = await db.raw<{ rows: StatementRow[] }>(
    `with turnover as (?)
    select a.id, a.kind, a.vendor_id, v.license_id, v.first_name, v.last_name, t.opening, t.received, t.sent
    from ledger_accounts a
    join turnover t on t.account_id = a.id
    left join vendors v on v.id = a.vendor_id
    order by array_position(array['customers', 'orga', 'cash', 'provider', 'vendor'], a.kind), ${licenseSortKey('v.license_id')}, a.id`,
    [accountTurnovers(db, from, to)],
  );
  return rows.map((row) => ({
    accountId: row.id,
    kind: row.kind,
    vendorId: row.vendor_id,
    licenseId: row.license_id,
    name: accountName(row, language),
    opening: row.opening,
    received: row.received,
    sent: row.sent,
    closing: row.opening + row.received - row.sent,
  }));
}

export const statementCsvColumns: CsvColumn<AccountStatement>[] = [
  { header: 'Account', value: (s) => s.name },
  { header: 'Account kind', value: (s, language) => accountKindName(s.kind, language) },
  { header: 'Licence', value: (s) => s.licenseId },
  { header: 'Opening balance', value: (s) => s.opening, format: 'cents' },
  { header: 'Incoming', value: (s) => s.received, format: 'cents' },
  { header: 'Outgoing', value: (s) => s.sent, format: 'cents' },
  { header: 'Closing balance', value: (s) => s.closing, format: 'cents' },
];
