import type { Knex } from 'knex';
import { respondCsv, wantsCsv } from '../http/csv-response.ts';
import { notFound } from '../http/errors.ts';
import { applyFilters, readListFilter, respondList } from '../http/list-query.ts';
import { staffName } from '../http/context.ts';
import type { AppContext, ProtocolSpec, RouteDef } from '../http/routes.ts';
import { letterhead, sendPrintable } from '../web/printable.ts';
import { idParam, readInput } from '../http/validate.ts';
import { vendorAccountId } from '../ledger/accounts.ts';
import { payOut, reversePayout } from '../ledger/payout.ts';
import { payoutLines } from '../ledger/payout-lines.ts';
import { accountRowToApi, openCredit, openRows, type AccountRow, type VendorLedgerRow } from '../ledger/queries.ts';
import { vendorOfLicence } from '../vendors/queries.ts';
import {
  findPayout,
  payoutBatches,
  payoutList,
  payoutsBase,
  payoutsWithItems,
  payoutTotals,
  settledRows,
  type Payout,
} from './queries.ts';
import { receiptHtml, reversalReceiptHtml } from './receipt.ts';
import { payoutInput, reversalInput } from './schema.ts';
import { tr } from '../language/messages.ts';
import { creditIsTestMoney } from '../stripe/mode.ts';
import type { CsvColumn } from '../foundations/csv.ts';
import { formatAmount } from '../money/currency.ts';
import type { ListSpec } from '../foundations/lists.ts';
import { receiptFiscalBlock, withFiscalBlock } from '../fiscal/receipt.ts';
import { publishLedgerEvent } from '../webhooks-out/ledger-events.ts';

const payoutId = (ctx: AppContext) => idParam(ctx.params.id, 'payout');

async function requirePayout(ctx: AppContext, id: number): Promise<Payout> {
  const payout = await findPayout(ctx.db, id);
  if (!payout) throw notFound(tr('There is no payout with the id {id}.', { id }));
  return payout;
}

/** A payout with the rows it settled: the answer to paying out and to reading one payout. */
async function payoutWithRows(ctx: AppContext, id: number) {
  const payout = await requirePayout(ctx, id);
  return { ...payout, rows: await settledRows(ctx.db, payout) };
}

/** The protocol keeps a payout as the list shows it (its rows are in the ledger). */
const payoutProtocol = (action: string): ProtocolSpec => ({
  recordType: 'payout',
  action,
  load: (ctx, id) => findPayout(ctx.db, Number(id)),
});

/** The list's query narrowed by the request's filters, for the CSV and the totals. */
function filteredPayouts(ctx: AppContext, base: Knex.QueryBuilder): Knex.QueryBuilder {
  const spec = payoutList as ListSpec<never, unknown>;
  applyFilters(ctx, base, readListFilter(ctx, spec), spec);
  return base;
}

const csvColumns: CsvColumn<Payout>[] = [
  { header: 'Voucher number', value: (p) => p.voucher },
  { header: 'Date', value: (p) => p.createdAt, format: 'date' },
  { header: 'Licence ID', value: (p) => p.vendor.licenseId },
  { header: 'Vendor', value: (p) => p.vendor.name },
  { header: 'Amount', value: (p) => p.amount, format: 'cents' },
  { header: 'Paid out by', value: (p) => p.authorisedBy },
  { header: 'Reversed on', value: (p) => p.reversedAt, format: 'date' },
  { header: 'Reversed by', value: (p) => p.reversedBy },
  { header: 'Reversal reason', value: (p) => p.reversalReason },
  {
    header: 'Lines',
    value: (p, language, currency) =>
      p.items
        .map((item) => `${item.itemName} × ${item.quantity}: ${formatAmount(item.amount, currency, language)}`)
        .join('; '),
  },
  { header: 'Reversal voucher', value: (p) => p.reversalVoucher },
];

export const payoutRoutes: RouteDef[] = [
  {
    // What the payout page shows before staff confirm: every open row and their sum.
    method: 'GET',
    path: '/api/payments/forpayout',
    access: 'backoffice',
    handler: async (ctx) => {
      const vendor = await vendorOfLicence(ctx.db, ctx.query.vendor);
      const account = await vendorAccountId(ctx.db, vendor.id);
      const open = account === undefined ? [] : ((await openRows(ctx.db, account)) as AccountRow[]);
      const payments: VendorLedgerRow[] = open.map(accountRowToApi);
      ctx.body = {
        vendor: {
          id: vendor.id,
          licenseId: vendor.license_id,
          firstName: vendor.first_name,
          lastName: vendor.last_name,
        },
        balance: account === undefined ? 0 : (await openCredit(ctx.db, account)).credit,
        payments,
      };
    },
  },
  {
    method: 'POST',
    path: '/api/payments/payout',
    access: 'backoffice',
    body: 'json',
    input: payoutInput,
    protocol: payoutProtocol('payout'),
    handler: async (ctx) => {
      const input = readInput(ctx, payoutInput);
      const vendor = await vendorOfLicence(ctx.db, input.vendor);
      const id = await payOut(
        ctx.db,
        {
          vendorId: vendor.id,
          expectedAmount: input.expectedAmount,
          authorisedBy: staffName(ctx),
          timeZone: ctx.config.timeZone,
          tillId: input.tillId,
          requestId: input.requestId,
          creditIsTestMoney: creditIsTestMoney(ctx.config),
        },
        publishLedgerEvent,
      );
      // A submission sent again answers as the first time: the same payout.
      ctx.status = 201;
      ctx.body = await payoutWithRows(ctx, id);
    },
  },
  {
    method: 'POST',
    path: '/api/payments/payout/:id/reverse',
    access: 'backoffice',
    body: 'json',
    input: reversalInput,
    protocol: { ...payoutProtocol('reverse'), id: payoutId },
    handler: async (ctx) => {
      const id = payoutId(ctx);
      const { reason } = readInput(ctx, reversalInput);
      await reversePayout(
        ctx.db,
        {
          payoutId: id,
          reason,
          authorisedBy: staffName(ctx),
          timeZone: ctx.config.timeZone,
        },
        publishLedgerEvent,
      );
      ctx.body = await requirePayout(ctx, id);
    },
  },
  {
    method: 'GET',
    path: '/api/payouts',
    access: 'backoffice',
    handler: async (ctx) => {
      if (wantsCsv(ctx))
        respondCsv(ctx, 'payouts.csv', csvColumns, payoutBatches(filteredPayouts(ctx, payoutsWithItems(ctx.db))));
      else await respondList(ctx, payoutsWithItems(ctx.db), payoutList);
    },
  },
  // Before /api/payouts/:id, which would otherwise take "totals" for an id.
  {
    // The sums of the whole filtered period, not only of the page the list shows.
    method: 'GET',
    path: '/api/payouts/totals',
    access: 'backoffice',
    handler: async (ctx) => {
      ctx.body = await payoutTotals(ctx.db, filteredPayouts(ctx, payoutsBase(ctx.db)));
    },
  },
  {
    method: 'GET',
    path: '/api/payouts/:id',
    access: 'backoffice',
    handler: async (ctx) => {
      ctx.body = await payoutWithRows(ctx, payoutId(ctx));
    },
  },
  {
    method: 'GET',
    path: '/api/payouts/:id/receipt',
    access: 'backoffice',
    handler: async (ctx) => {
      const payout = await requirePayout(ctx, payoutId(ctx));
      const lang = ctx.query.lang === 'en' ? 'en' : 'de';
      const fiscal = await receiptFiscalBlock(ctx.db, ctx.config, { payoutId: payout.id }, lang);
      sendPrintable(
        ctx,
        withFiscalBlock(
          receiptHtml({
            ...(await letterhead(ctx)),
            payout,
            lines: await payoutLines(ctx.db, payout.id),
            lang,
            timeZone: ctx.config.timeZone,
          }),
          fiscal,
        ),
      );
    },
  },
  {
    // The reversal's own paper (Stornobeleg): its voucher, naming the payout's.
    method: 'GET',
    path: '/api/payouts/:id/reversal/receipt',
    access: 'backoffice',
    handler: async (ctx) => {
      const payout = await requirePayout(ctx, payoutId(ctx));
      if (!payout.reversed) throw notFound(tr('Payout {id} has not been reversed.', { id: payout.id }));
      const lang = ctx.query.lang === 'en' ? 'en' : 'de';
      const fiscal = await receiptFiscalBlock(ctx.db, ctx.config, { reversalOfPayoutId: payout.id }, lang);
      sendPrintable(
        ctx,
        withFiscalBlock(
          reversalReceiptHtml({
            ...(await letterhead(ctx)),
            payout,
            lang,
            timeZone: ctx.config.timeZone,
          }),
          fiscal,
        ),
      );
    },
  },
];
