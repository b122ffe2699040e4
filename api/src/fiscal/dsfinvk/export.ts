import { strToU8, zipSync } from 'fflate';
import type { Knex } from 'knex';
import type { Config } from '../../foundations/config.ts';
import { localDateTime } from '../../foundations/period.ts';
import { vatIncluded } from '../../ledger/vat.ts';
import { gdpduDtd, gdpduDtdName } from '../gdpdu-dtd.ts';
import type { DeSignature } from '../port.ts';
import { tillSerial } from '../ids.ts';
import { csv, decimal, indexXml, keyOf, notTaxable, taxonomyVersion, vatKeys, whole, type Table } from './format.ts';
import { closesOf, json, masterData, tillMaster, vorgaenge, type TillMaster } from './queries.ts';
import { certificateColumns, missingSignature } from './signatures.ts';
import { dsfinvkTables } from './tables.ts';

// The DSFinV-K export (Digitale Schnittstelle der Finanzverwaltung für Kassensysteme, version 2.3,
// BMF/BZSt): what the tax office may ask of a German till (§147 (6) AO), per daily close
// (Kassenabschluss), as CSV files described by an index.xml in the GDPdU format. The files and their
// columns follow the specification's chapter 3 (the names as the open-source python-dsfinvk of
// pretix and StuStaPay list them, 3.1.1 to 3.3.3):
// - Einzelaufzeichnungsmodul: lines.csv (Bonpos), lines_vat.csv (Bonpos_USt), transactions.csv
//   (Bonkopf), transactions_vat.csv (Bonkopf_USt), datapayment.csv (Bonkopf_Zahlarten),
//   transactions_tse.csv (TSE_Transaktionen);
// - Stammdatenmodul: cashpointclosing.csv (Stamm_Abschluss), location.csv (Stamm_Orte),
//   cashregister.csv (Stamm_Kassen), vat.csv (Stamm_USt), tse.csv (Stamm_TSE);
// - Kassenabschlussmodul: businesscases.csv (Z_GV_Typ), payment.csv (Z_Zahlart),
//   cash_per_currency.csv (Z_Waehrungen).
// The files this counter has nothing for (allocation_groups, references, itemamounts, subitems,
// slaves, pa) are left out. Every Vorgang (BON_ID) comes from the cash book, not from the signatures:
// the books are the truth, and a movement the TSE could not sign is exported with its error
// (TSE_TA_FEHLER). CSV: `;` between fields, text in double quotes, decimal comma, UTF-8, a header
// line (index.xml's Range starts at line 2).

/** The ZIP of the DSFinV-K for the closes of the local days `from` to `to` (both included). */
export async function dsfinvkExport(
  db: Knex,
  config: Config,
  from: string,
  to: string,
): Promise<{ zip: Uint8Array; filename: string }> {
  const company = await masterData(db);
  const t = dsfinvkTables();

  const tills = new Map<number, TillMaster>();
  for (const close of await closesOf(db, from, to)) {
    const z = [String(close.till_id), localDateTime(close.created_at, config.timeZone), Number(close.number)] as const;
    const till = tills.get(close.till_id) ?? (await tillMaster(db, close.till_id));
    tills.set(close.till_id, till);
    const items = await vorgaenge(db, close);
    const cases = new Map<string, { type: string; key: number; gross: number; vat: number }>();
    const paid = new Map<string, number>();
    // The TSEs of the close, numbered from 1 (TSE_ID refers to them within the close): those that
    // signed its Vorgänge, else the till's, so a Vorgang without a signature names the TSE it lacks.
    const tses = new Map<string, { id: number; sig: DeSignature }>();
    const tseOf = (sig: DeSignature) => {
      if (!tses.has(sig.tssSerial)) tses.set(sig.tssSerial, { id: tses.size + 1, sig });
      return tses.get(sig.tssSerial)!.id;
    };
    for (const item of items) if (item.fiscal?.signature) tseOf(item.fiscal.signature);
    const tillTse = json<DeSignature>(till.signature);
    let serial = tillSerial(close.till_id);
    items.forEach((item, n) => {
      const { request } = item.built;
      const gross = request.lines.reduce((sum, line) => sum + line.gross, 0);
      // The Bon's sums per VAT key, for transactions_vat.csv, beside each line's own.
      const perKey = new Map<number, { gross: number; vat: number }>();
      request.lines.forEach((line, pos) => {
        const key = keyOf(line.vatRate);
        const vat = line.vatRate === null ? 0 : vatIncluded(line.gross, line.vatRate);
        const quantity = line.quantity ?? 1;
        t.lines.rows.push([
          ...z,
          item.bonId,
          String(pos + 1),
          '',
          line.label,
          '',
          line.businessCase,
          '',
          '0',
          '0',
          '',
          '',
          '',
          '',
          '',
          whole(quantity, 3),
          whole(1, 3),
          'Stück',
          decimal(line.gross / quantity, 5),
        ]);
        t.linesVat.rows.push([
          ...z,
          item.bonId,
          String(pos + 1),
          key.key,
          decimal(line.gross, 5),
          decimal(line.gross - vat, 5),
          decimal(vat, 5),
        ]);
        const caseKey = `${line.businessCase} ${key.key}`;
        const sum = cases.get(caseKey) ?? { type: line.businessCase, key: key.key, gross: 0, vat: 0 };
        sum.gross += line.gross;
        sum.vat += vat;
        cases.set(caseKey, sum);
        const bonSum = perKey.get(key.key) ?? { gross: 0, vat: 0 };
        bonSum.gross += line.gross;
        bonSum.vat += vat;
        perKey.set(key.key, bonSum);
      });
      for (const [key, sum] of perKey)
        t.transactionsVat.rows.push([
          ...z,
          item.bonId,
          key,
          decimal(sum.gross, 5),
          decimal(sum.gross - sum.vat, 5),
          decimal(sum.vat, 5),
        ]);
      for (const payment of request.payments) {
        t.payments.rows.push([
          ...z,
          item.bonId,
          payment.type,
          payment.type === 'Bar' ? 'Bargeld' : 'Guthaben',
          'EUR',
          decimal(payment.amount),
          decimal(payment.amount),
        ]);
        paid.set(payment.type, (paid.get(payment.type) ?? 0) + payment.amount);
      }
      const start = localDateTime(item.start, config.timeZone);
      t.transactions.rows.push([
        ...z,
        item.bonId,
        n + 1,
        item.type,
        item.type === 'AVBelegabbruch' ? 'Belegabbruch' : item.built.businessCase,
        '',
        '0',
        start,
        start,
        item.staff,
        item.staff,
        decimal(gross),
        '',
        item.vendor,
        item.vendor ? 'Verkäufer' : '',
        '',
        '',
        '',
        '',
        '',
        '',
      ]);
      // Every Bon has its TSE row: the signature, or why there is none (TSE_TA_FEHLER).
      const sig = item.fiscal?.signature ?? null;
      if (sig) {
        serial = sig.clientSerial;
        t.tseTransactions.rows.push([
          ...z,
          item.bonId,
          tseOf(sig),
          sig.transactionNumber,
          sig.start,
          sig.end,
          sig.processType,
          sig.signatureCounter,
          sig.signature,
          '',
          sig.processData,
        ]);
      } else {
        const tse = [...tses.values()][0]?.id ?? (tillTse ? tseOf(tillTse) : '');
        t.tseTransactions.rows.push([
          ...z,
          item.bonId,
          tse,
          '',
          '',
          '',
          '',
          '',
          '',
          missingSignature(item, till, config.timeZone),
          '',
        ]);
      }
    });
    const total = [...paid.values()].reduce((a, b) => a + b, 0);
    t.closing.rows.push([
      ...z,
      close.day,
      taxonomyVersion,
      items[0]?.bonId ?? '',
      items.at(-1)?.bonId ?? '',
      company.name,
      company.street,
      company.postcode,
      company.town,
      company.country,
      company.taxNumber,
      company.vatId,
      decimal(total),
      decimal(paid.get('Bar') ?? 0),
    ]);
    t.location.rows.push([
      ...z,
      (till.location_name || `${company.name}, ${till.name}`).slice(0, 60),
      till.location_street || company.street,
      till.location_postcode || company.postcode,
      till.location_town || company.town,
      company.country,
      company.vatId,
    ]);
    t.register.rows.push([
      ...z,
      'Straßenzeitung',
      'street-paper-shop',
      serial,
      'street-paper-shop',
      '0.1.0',
      'EUR',
      '0',
    ]);
    const keys = new Set([...cases.values()].map((c) => c.key));
    for (const key of [...keys].sort()) {
      const known = [...Object.values(vatKeys), notTaxable].find((k) => k.key === key);
      t.vat.rows.push([...z, key, decimal((known?.rate ?? 0) * 100), known?.name ?? '']);
    }
    for (const { id, sig } of tses.values()) {
      const certificate = sig.certificate ?? (tillTse?.tssSerial === sig.tssSerial ? tillTse.certificate : undefined);
      t.tse.rows.push([
        ...z,
        id,
        sig.tssSerial,
        sig.algorithm,
        sig.timeFormat,
        'UTF-8',
        sig.publicKey,
        ...certificateColumns(certificate),
      ]);
    }
    for (const sum of cases.values())
      t.businessCases.rows.push([
        ...z,
        sum.type,
        '',
        '',
        sum.key,
        decimal(sum.gross, 5),
        decimal(sum.gross - sum.vat, 5),
        decimal(sum.vat, 5),
      ]);
    for (const [type, amount] of paid)
      t.paymentTotals.rows.push([...z, type, type === 'Bar' ? 'Bargeld' : 'Guthaben', decimal(amount)]);
    t.currencies.rows.push([...z, 'EUR', decimal(paid.get('Bar') ?? 0)]);
  }

  const tables: Table[] = Object.values(t);
  const files: Record<string, Uint8Array> = {
    'index.xml': strToU8(
      indexXml(tables, {
        name: company.name,
        location: `${company.street}, ${company.postcode} ${company.town}, ${company.country}`,
      }),
    ),
    [gdpduDtdName]: strToU8(gdpduDtd),
  };
  for (const table of tables) files[table.file] = strToU8(csv(table));
  return { zip: zipSync(files), filename: `dsfinvk_${from}_${to}.zip` };
}
