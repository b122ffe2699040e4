import type { Knex } from 'knex';
import type { Config } from '../../foundations/config.ts';
import { invalidError } from '../../foundations/errors.ts';
import { tr } from '../../language/messages.ts';
import { fallbackVatRate } from '../cases.ts';
import { tillFiscal } from '../settings.ts';
import { rateHasSlot, slotRates } from './rksv.ts';

// A sale at a VAT rate the RKSV receipt has no slot for (Anlage Z 4: 20, 10, 13, 0, 19 %; the demo's
// German 7 % has none) could never be signed: it is refused before anything is booked, with a sentence
// that names the rate and the item, instead of a sale whose receipt would say the device failed.

/** Refuses the sale when a till that signs in Austria would sell an item at a rate without a slot. */
export async function refuseRatesWithoutSlot(
  db: Knex,
  config: Config,
  tillId: number | undefined,
  itemIds: number[],
): Promise<void> {
  if (tillId === undefined || !itemIds.length) return;
  const fiscal = await tillFiscal(db, config, tillId);
  if (fiscal.effectiveMode === 'off' || fiscal.effectiveCountry !== 'AT') return;
  // The rate a sale is booked at: the item's own, else the newspaper's (as cases.ts signs it).
  const { rows } = await db.raw<{ rows: { name: string; rate: number | string }[] }>(
    `select i.name, coalesce((to_jsonb(i)->>'vat_rate')::integer,
              (select (to_jsonb(s)->>'vat_rate')::integer from settings s limit 1), ${fallbackVatRate}) as rate
       from items i where i.id = any(?::integer[]) order by i.id`,
    [itemIds],
  );
  const wrong = rows.find((row) => !rateHasSlot(Number(row.rate)));
  if (wrong)
    throw invalidError(
      tr(
        '“{item}” sells at {rate} % VAT, which an Austrian receipt (RKSV) has no slot for ({rates}). Please set the item’s VAT rate to one of them first.',
        { item: wrong.name, rate: String(Number(wrong.rate) / 100), rates: slotRates() },
      ),
    );
}
