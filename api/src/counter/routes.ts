import { respondCsv, wantsCsv } from '../http/csv-response.ts';
import { badRequest, notFound } from '../http/errors.ts';
import { staffName } from '../http/context.ts';
import type { AppContext, ProtocolSpec, RouteDef } from '../http/routes.ts';
import { letterhead, sendPrintable } from '../web/printable.ts';
import { idParam, parse, readInput } from '../http/validate.ts';
import { vendorAccountId } from '../ledger/accounts.ts';
import { counterVisit } from '../ledger/counter.ts';
import { accountRowToApi, openRows, type AccountRow, type VendorLedgerRow } from '../ledger/queries.ts';
import { bookManualMovement, closeDay, createTill } from '../ledger/till.ts';
import { creditIsTestMoney } from '../stripe/mode.ts';
import { vendorOfLicence } from '../vendors/queries.ts';
import { cashBook, type CashMovement } from './cash-book.ts';
import { closeDays, findClose, listCloses, type TillClose } from './closes.ts';
import { findTill, listTills, localToday } from './tills.ts';
import { findVisit, recentVisits, type VisitSummary } from './visits.ts';
import { visitReceiptHtml } from './receipt.ts';
import { closeReportHtml } from './close-report.ts';
import { officeToday } from './today.ts';
import { refuseRatesWithoutSlot } from '../fiscal/at/rates.ts';
import { closeInput, dayRange, movementInput, tillInput, tillLocationInput, visitInput } from './schema.ts';
import { tr, type Message } from '../language/messages.ts';
import type { CsvColumn } from '../foundations/csv.ts';
import { receiptFiscalBlock, withFiscalBlock } from '../fiscal/receipt.ts';
import { startVisitTransaction } from '../fiscal/visit-start.ts';
import { publishLedgerEvent } from '../webhooks-out/ledger-events.ts';

// The counter: a vendor's visit, the tills with their cash book and daily close, and the
// papers to print. The money rules are in ledger/counter.ts and ledger/till.ts.

const tillParam = (ctx: AppContext) => idParam(ctx.params.id, 'till');

async function requireTill(ctx: AppContext, id: number) {
  const till = await findTill(ctx.db, id, ctx.config.timeZone);
  if (!till) throw notFound(tr('There is no till with the id {id}.', { id }));
  return till;
}

async function paperHeader(ctx: AppContext) {
  return {
    ...(await letterhead(ctx)),
    lang: ctx.query.lang === 'en' ? ('en' as const) : ('de' as const),
    timeZone: ctx.config.timeZone,
  };
}

const visitIdParam = (ctx: AppContext) => {
  const id = ctx.params.id ?? '';
  if (!/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(id))
    throw badRequest(tr('"{id}" is not a visit id.', { id }));
  return id.toLowerCase();
};

async function requireVisit(ctx: AppContext, id: string) {
  const visit = await findVisit(ctx.db, id);
  if (!visit) throw notFound(tr('There is no counter visit with the id {id}.', { id }));
  return visit;
}

const visitProtocol: ProtocolSpec = {
  recordType: 'counter_visit',
  action: 'visit',
  load: (ctx, id) => findVisit(ctx.db, String(id)),
};
const tillProtocol = (action: string): ProtocolSpec => ({
  recordType: 'till',
  action,
  id: tillParam,
  load: (ctx, id) => findTill(ctx.db, Number(id), ctx.config.timeZone),
});

// The CSV files for the bookkeeper, in German like the other lists' files.
const movementKindNames: Record<string, Message> = {
  payout: tr('Payout'),
  payout_reversal: tr('Payout reversal'),
  counter_cash: tr('Cash for copies'),
  bank_deposit: tr('Bank deposit'),
  bank_withdrawal: tr('Bank withdrawal'),
  expense: tr('Expense'),
  income: tr('Income'),
  difference: tr('Till difference'),
};
const bookCsv: CsvColumn<CashMovement>[] = [
  { header: 'Voucher', value: (m) => m.voucher },
  { header: 'Date', value: (m) => m.day },
  { header: 'Time', value: (m) => m.createdAt, format: 'date' },
  { header: 'Movement', value: (m) => movementKindNames[m.kind] ?? m.kind },
  {
    header: 'Counterpart',
    value: (m) =>
      m.vendor ? `${m.vendor.name} (${m.vendor.licenseId})` : m.counterpart === 'bank' ? tr('Bank') : tr('Other'),
  },
  { header: 'Reason', value: (m) => m.reason },
  { header: 'Reversal of', value: (m) => m.reverses },
  { header: 'Staff member', value: (m) => m.staff },
  { header: 'Income', value: (m) => m.amountIn, format: 'cents' },
  { header: 'Expense', value: (m) => m.amountOut, format: 'cents' },
  { header: 'Balance', value: (m) => m.balance, format: 'cents' },
];
const closesCsv: CsvColumn<TillClose>[] = [
  { header: 'Till', value: (c) => c.tillName },
  { header: 'Day', value: (c) => c.day },
  { header: 'Opening balance', value: (c) => c.openingBalance, format: 'cents' },
  { header: 'Expected', value: (c) => c.expected, format: 'cents' },
  { header: 'Counted', value: (c) => c.counted, format: 'cents' },
  { header: 'Difference', value: (c) => c.difference, format: 'cents' },
  { header: 'Reason', value: (c) => c.reason },
  { header: 'Closed by', value: (c) => c.staff },
];
const visitsCsv: CsvColumn<VisitSummary>[] = [
  { header: 'Time', value: (v) => v.createdAt, format: 'date' },
  { header: 'Licence ID', value: (v) => v.vendor.licenseId },
  { header: 'Vendor', value: (v) => v.vendor.name },
  { header: 'Copies', value: (v) => v.copiesAmount, format: 'cents' },
  { header: 'From credit', value: (v) => v.fromCredit, format: 'cents' },
  { header: 'Cash', value: (v) => v.cashPaid, format: 'cents' },
  { header: 'Payout', value: (v) => v.payoutAmount, format: 'cents' },
  { header: 'Staff member', value: (v) => v.staff },
];

export const counterRoutes: RouteDef[] = [
  {
    // The office's start screen.
    method: 'GET',
    path: '/api/office/today',
    access: 'backoffice',
    handler: async (ctx) => {
      ctx.body = await officeToday(ctx.db, ctx.config.timeZone);
    },
  },
  {
    // What the visit screen shows: the vendor, their credit and open rows, the copies on offer, the tills.
    method: 'GET',
    path: '/api/counter/vendor',
    access: 'backoffice',
    handler: async (ctx) => {
      const vendor = await vendorOfLicence(ctx.db, ctx.query.vendor);
      const account = await vendorAccountId(ctx.db, vendor.id);
      const rows: VendorLedgerRow[] =
        account === undefined ? [] : (await openRows(ctx.db, account).select<AccountRow[]>()).map(accountRowToApi);
      const items = await ctx
        .db('items')
        .whereNull('deleted_at')
        .whereNotNull('counter_price')
        .orderBy('item_order', 'desc')
        .orderBy('id')
        .select('id', 'name', 'counter_price as counterPrice');
      ctx.body = {
        vendor: {
          id: vendor.id,
          licenseId: vendor.license_id,
          firstName: vendor.first_name,
          lastName: vendor.last_name,
        },
        credit: rows.reduce((sum, row) => sum + row.sign * row.amount, 0),
        rows,
        items,
        tills: await listTills(ctx.db, ctx.config.timeZone),
      };
    },
  },
  {
    method: 'POST',
    path: '/api/counter/visits',
    access: 'backoffice',
    body: 'json',
    input: visitInput,
    protocol: visitProtocol,
    // The TSE transaction starts with the visit, before its booking's transaction opens, and is
    // cancelled when the booking fails (fiscal/visit-start.ts).
    around: async (ctx, run) => {
      const input = readInput(ctx, visitInput);
      const fiscal = await startVisitTransaction(ctx.db, ctx.config, {
        visitId: input.visitId.toLowerCase(),
        tillId: input.tillId,
        lines: input.items,
      });
      try {
        await run();
      } catch (error) {
        await fiscal?.cancel();
        throw error;
      }
      if (ctx.status >= 400) await fiscal?.cancel();
    },
    handler: async (ctx) => {
      const input = readInput(ctx, visitInput);
      await refuseRatesWithoutSlot(
        ctx.db,
        ctx.config,
        input.tillId,
        input.items.map((item) => item.itemId),
      );
      const vendor = await vendorOfLicence(ctx.db, input.vendor);
      const { id, booked } = await counterVisit(
        ctx.db,
        {
          visitId: input.visitId.toLowerCase(),
          vendorId: vendor.id,
          tillId: input.tillId,
          lines: input.items,
          cash: input.cash,
          tendered: input.tendered,
          payOut: input.payOut,
          expectedCredit: input.expectedCredit,
          creditIsTestMoney: creditIsTestMoney(ctx.config),
          staff: staffName(ctx),
          timeZone: ctx.config.timeZone,
        },
        publishLedgerEvent,
      );
      ctx.status = booked ? 201 : 200;
      ctx.body = await requireVisit(ctx, id);
    },
  },
  {
    // The latest 50 visits, newest first; `?vendor=<licence ID>` narrows them to one vendor.
    method: 'GET',
    path: '/api/counter/visits',
    access: 'backoffice',
    handler: async (ctx) => {
      const vendor = ctx.query.vendor === undefined ? undefined : await vendorOfLicence(ctx.db, ctx.query.vendor);
      const visits = await recentVisits(ctx.db, { vendorId: vendor?.id });
      if (wantsCsv(ctx)) respondCsv(ctx, 'theke.csv', visitsCsv, [visits]);
      else ctx.body = visits;
    },
  },
  {
    method: 'GET',
    path: '/api/counter/visits/:id',
    access: 'backoffice',
    handler: async (ctx) => {
      ctx.body = await requireVisit(ctx, visitIdParam(ctx));
    },
  },
  {
    method: 'GET',
    path: '/api/counter/visits/:id/receipt',
    access: 'backoffice',
    handler: async (ctx) => {
      const visit = await requireVisit(ctx, visitIdParam(ctx));
      const header = await paperHeader(ctx);
      const fiscal = await receiptFiscalBlock(ctx.db, ctx.config, { visitId: visit.id }, header.lang);
      sendPrintable(ctx, withFiscalBlock(visitReceiptHtml({ ...header, visit }), fiscal));
    },
  },
  {
    method: 'GET',
    path: '/api/tills',
    access: 'backoffice',
    handler: async (ctx) => {
      ctx.body = {
        tills: await listTills(ctx.db, ctx.config.timeZone),
        today: await localToday(ctx.db, ctx.config.timeZone),
      };
    },
  },
  {
    method: 'POST',
    path: '/api/tills',
    access: 'backoffice',
    body: 'json',
    input: tillInput,
    protocol: {
      recordType: 'till',
      action: 'create',
      load: (ctx, id) => findTill(ctx.db, Number(id), ctx.config.timeZone),
    },
    handler: async (ctx) => {
      const input = readInput(ctx, tillInput);
      const id = await createTill(ctx.db, input);
      ctx.status = 201;
      ctx.body = await requireTill(ctx, id);
    },
  },
  {
    // Where the till stands (the DSFinV-K's Stamm_Orte); empty fields: the paper's address.
    method: 'PUT',
    path: '/api/tills/:id/location',
    access: 'backoffice',
    body: 'json',
    input: tillLocationInput,
    protocol: tillProtocol('update'),
    handler: async (ctx) => {
      const id = (await requireTill(ctx, tillParam(ctx))).id;
      const location = readInput(ctx, tillLocationInput);
      await ctx.db('tills').where({ id }).update({
        location_name: location.name,
        location_street: location.street,
        location_postcode: location.postcode,
        location_town: location.town,
      });
      ctx.body = await requireTill(ctx, id);
    },
  },
  {
    // The cash book; `from`/`to` narrow it to local days.
    method: 'GET',
    path: '/api/tills/:id/book',
    access: 'backoffice',
    handler: async (ctx) => {
      const till = await requireTill(ctx, tillParam(ctx));
      const range = parse(dayRange, ctx.query);
      const movements = await cashBook(ctx.db, till.id, range);
      if (wantsCsv(ctx)) respondCsv(ctx, `kassenbuch_${till.id}.csv`, bookCsv, [movements]);
      else ctx.body = { till, movements };
    },
  },
  {
    method: 'POST',
    path: '/api/tills/:id/movements',
    access: 'backoffice',
    body: 'json',
    input: movementInput,
    protocol: tillProtocol('movement'),
    handler: async (ctx) => {
      const till = await requireTill(ctx, tillParam(ctx));
      const input = readInput(ctx, movementInput);
      const { voucher } = await bookManualMovement(ctx.db, {
        tillId: till.id,
        ...input,
        staff: staffName(ctx),
        timeZone: ctx.config.timeZone,
      });
      ctx.status = 201;
      ctx.body = { voucher, till: await requireTill(ctx, till.id) };
    },
  },
  {
    method: 'GET',
    path: '/api/tills/:id/closes',
    access: 'backoffice',
    handler: async (ctx) => {
      const till = await requireTill(ctx, tillParam(ctx));
      const closes = await listCloses(ctx.db, till.id);
      if (wantsCsv(ctx)) respondCsv(ctx, `kassenabschluesse_${till.id}.csv`, closesCsv, [closes]);
      else ctx.body = { till, today: await localToday(ctx.db, ctx.config.timeZone), closes };
    },
  },
  {
    method: 'POST',
    path: '/api/tills/:id/closes',
    access: 'backoffice',
    body: 'json',
    input: closeInput,
    protocol: tillProtocol('close'),
    handler: async (ctx) => {
      const till = await requireTill(ctx, tillParam(ctx));
      const input = readInput(ctx, closeInput);
      const id = await closeDay(
        ctx.db,
        {
          tillId: till.id,
          counted: input.counted,
          expected: input.expected,
          denominations: input.denominations as Record<string, number> | undefined,
          reason: input.reason,
          staff: staffName(ctx),
          timeZone: ctx.config.timeZone,
        },
        publishLedgerEvent,
      );
      ctx.status = 201;
      ctx.body = await findClose(ctx.db, id);
    },
  },
  {
    method: 'GET',
    path: '/api/closes/:id/report',
    access: 'backoffice',
    handler: async (ctx) => {
      const close = await findClose(ctx.db, idParam(ctx.params.id, 'close'));
      if (!close) throw notFound('There is no such close.');
      const header = await paperHeader(ctx);
      const fiscal = await receiptFiscalBlock(ctx.db, ctx.config, { closeId: close.id }, header.lang);
      sendPrintable(
        ctx,
        withFiscalBlock(closeReportHtml({ ...header, close, days: await closeDays(ctx.db, close) }), fiscal),
      );
    },
  },
];
