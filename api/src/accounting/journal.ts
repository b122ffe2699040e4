import type { Knex } from 'knex';
import type { Language } from '../language/messages.ts';
import { minorToDecimal, neutraliseFormula } from '../foundations/csv.ts';
import { slicesOf } from '../foundations/event-loop.ts';
import type { DatevSettings } from './datev-settings.ts';
import { type Booking, cashOnlyMovements, type DatevPeriod, movementBooking, rowBookings } from './datev.ts';

// The bookkeeper's file for every installation, whatever its country: a double-entry journal as
// CSV, one line per booking (date, voucher, debit account, credit account, amount, currency, text).
// It books exactly what the DATEV file books, line for line (accounting/datev.ts: each ledger row
// from its sender's account to its receiver's, each cash movement without a ledger row between the
// till and its counter-account), with the account numbers of the DATEV settings, so it reconciles
// with the trial balance per account the same way. Amounts are in the installation's currency, as
// decimals of its major unit with a point (Stripe's exponent: 500 JPY is "500"); the headings stay
// English for an importer, the text is in the reader's language (German or English).

type Db = Knex | Knex.Transaction;

const header = ['Date', 'Voucher', 'Debit account', 'Credit account', 'Amount', 'Currency', 'Text'];

/** A field quoted when it holds a separator, a quote or a line break; a formula's lead neutralised. */
function field(value: string): string {
  const safe = neutraliseFormula(value);
  return /[",\r\n]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
}

function line(booking: Booking, currency: string): string {
  // A booking is debit `account`, credit `contra`; a negative sum goes the other way round.
  const [debit, credit] = booking.amount < 0 ? [booking.contra, booking.account] : [booking.account, booking.contra];
  return (
    [
      booking.day,
      field(booking.voucher),
      debit,
      credit,
      minorToDecimal(Math.abs(booking.amount), currency, '.'),
      currency,
      field(booking.text),
    ].join(',') + '\r\n'
  );
}

/** The journal of a period as text chunks: the heading, then every booking, oldest first, its text in `language`. */
export async function* journalFile(
  db: Db,
  settings: DatevSettings,
  period: DatevPeriod,
  currency: string,
  timeZone: string,
  language: Language,
): AsyncGenerator<string> {
  yield header.join(',') + '\r\n';
  for await (const bookings of rowBookings(db, settings, period, timeZone, language))
    yield bookings.map((booking) => line(booking, currency)).join('');
  for await (const slice of slicesOf(await cashOnlyMovements(db, period)))
    yield slice.map((movement) => line(movementBooking(settings, movement, language), currency)).join('');
}
