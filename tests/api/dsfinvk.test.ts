import assert from 'node:assert/strict';
import { randomUUID, X509Certificate } from 'node:crypto';
import { strFromU8, unzipSync } from 'fflate';
import { simulatorCredentials } from '../../api/src/fiscal/sandbox/keys.ts';
import { bookPaidOrder } from '../support/books.ts';
import { withForm } from '../support/fixtures.ts';
import { describeApi } from '../support/env.ts';
import { itemId, vendorId } from '../support/orders.ts';
import { listenShop, type ListeningShop } from '../support/shop-server.ts';

// The DSFinV-K export of a period read back as the tax office's software reads it: index.xml names
// every file and its columns, every CSV holds them, and its Vorgänge equal the cash book's movements
// of the period to the cent, signed by the TSE.

/** One CSV line of the DSFinV-K's format: `;` between fields, text in double quotes ("" inside). */
function parseLine(line: string): string[] {
  const fields: string[] = [];
  let at = 0;
  while (at <= line.length) {
    if (line[at] === '"') {
      let value = '';
      at++;
      for (;;) {
        const end = line.indexOf('"', at);
        if (end < 0) throw new Error(`unclosed quote in ${line}`);
        value += line.slice(at, end);
        at = end + 1;
        if (line[at] === '"') {
          value += '"';
          at++;
        } else break;
      }
      fields.push(value);
      at++; // the ;
    } else {
      const end = line.indexOf(';', at);
      fields.push(line.slice(at, end < 0 ? line.length : end));
      at = end < 0 ? line.length + 1 : end + 1;
    }
  }
  return fields;
}

// DSFinV-K 2.3's files and their columns, in order, as the specification's own index.xml declares
// them (chapter 3 of the DSFinV-K; its index.xml as published by the BZSt): a plain name is
// AlphaNumeric, `NAME#n` Numeric with Accuracy n (`NAME#0`: no Accuracy, whole numbers).
const key = ['Z_KASSE_ID', 'Z_ERSTELLUNG', 'Z_NR#0'];
const specification: Record<string, string[]> = {
  'cashpointclosing.csv': [
    ...key,
    'Z_BUCHUNGSTAG',
    'TAXONOMIE_VERSION',
    'Z_START_ID',
    'Z_ENDE_ID',
    'NAME',
    'STRASSE',
    'PLZ',
    'ORT',
    'LAND',
    'STNR',
    'USTID',
    'Z_SE_ZAHLUNGEN#2',
    'Z_SE_BARZAHLUNGEN#2',
  ],
  'location.csv': [...key, 'LOC_NAME', 'LOC_STRASSE', 'LOC_PLZ', 'LOC_ORT', 'LOC_LAND', 'LOC_USTID'],
  'cashregister.csv': [
    ...key,
    'KASSE_BRAND',
    'KASSE_MODELL',
    'KASSE_SERIENNR',
    'KASSE_SW_BRAND',
    'KASSE_SW_VERSION',
    'KASSE_BASISWAEH_CODE',
    'KEINE_UST_ZUORDNUNG',
  ],
  'tse.csv': [
    ...key,
    'TSE_ID#0',
    'TSE_SERIAL',
    'TSE_SIG_ALGO',
    'TSE_ZEITFORMAT',
    'TSE_PD_ENCODING',
    'TSE_PUBLIC_KEY',
    'TSE_ZERTIFIKAT_I',
    'TSE_ZERTIFIKAT_II',
  ],
  'vat.csv': [...key, 'UST_SCHLUESSEL#0', 'UST_SATZ#2', 'UST_BESCHR'],
  'businesscases.csv': [
    ...key,
    'GV_TYP',
    'GV_NAME',
    'AGENTUR_ID#0',
    'UST_SCHLUESSEL#0',
    'Z_UMS_BRUTTO#5',
    'Z_UMS_NETTO#5',
    'Z_UST#5',
  ],
  'payment.csv': [...key, 'ZAHLART_TYP', 'ZAHLART_NAME', 'Z_ZAHLART_BETRAG#2'],
  'cash_per_currency.csv': [...key, 'ZAHLART_WAEH', 'ZAHLART_BETRAG_WAEH#2'],
  'transactions.csv': [
    ...key,
    'BON_ID',
    'BON_NR#0',
    'BON_TYP',
    'BON_NAME',
    'TERMINAL_ID',
    'BON_STORNO',
    'BON_START',
    'BON_ENDE',
    'BEDIENER_ID',
    'BEDIENER_NAME',
    'UMS_BRUTTO#2',
    'KUNDE_NAME',
    'KUNDE_ID',
    'KUNDE_TYP',
    'KUNDE_STRASSE',
    'KUNDE_PLZ',
    'KUNDE_ORT',
    'KUNDE_LAND',
    'KUNDE_USTID',
    'BON_NOTIZ',
  ],
  'datapayment.csv': [
    ...key,
    'BON_ID',
    'ZAHLART_TYP',
    'ZAHLART_NAME',
    'ZAHLWAEH_CODE',
    'ZAHLWAEH_BETRAG#2',
    'BASISWAEH_BETRAG#2',
  ],
  'lines.csv': [
    ...key,
    'BON_ID',
    'POS_ZEILE',
    'GUTSCHEIN_NR',
    'ARTIKELTEXT',
    'POS_TERMINAL_ID',
    'GV_TYP',
    'GV_NAME',
    'INHAUS',
    'P_STORNO',
    'AGENTUR_ID#0',
    'ART_NR',
    'GTIN',
    'WARENGR_ID',
    'WARENGR',
    'MENGE#3',
    'FAKTOR#3',
    'EINHEIT',
    'STK_BR#5',
  ],
  'transactions_tse.csv': [
    ...key,
    'BON_ID',
    'TSE_ID#0',
    'TSE_TANR#0',
    'TSE_TA_START',
    'TSE_TA_ENDE',
    'TSE_TA_VORGANGSART',
    'TSE_TA_SIGZ#0',
    'TSE_TA_SIG',
    'TSE_TA_FEHLER',
    'TSE_VORGANGSDATEN',
  ],
  'transactions_vat.csv': [...key, 'BON_ID', 'UST_SCHLUESSEL#0', 'BON_BRUTTO#5', 'BON_NETTO#5', 'BON_UST#5'],
  'lines_vat.csv': [...key, 'BON_ID', 'POS_ZEILE', 'UST_SCHLUESSEL#0', 'POS_BRUTTO#5', 'POS_NETTO#5', 'POS_UST#5'],
};

// The columns every row must fill (DSFinV-K Anhang G); a TSE row's signature columns are checked
// on their own (a Bon without a signature gives its reason instead). TSE_ZERTIFIKAT_II holds the
// rest of a certificate longer than 1000 characters: empty for a shorter one.
const mandatory: Record<string, string[]> = {
  'cashpointclosing.csv': [
    'Z_KASSE_ID',
    'Z_ERSTELLUNG',
    'Z_NR',
    'TAXONOMIE_VERSION',
    'Z_START_ID',
    'Z_ENDE_ID',
    'NAME',
    'STRASSE',
    'PLZ',
    'ORT',
    'LAND',
    'Z_SE_ZAHLUNGEN',
    'Z_SE_BARZAHLUNGEN',
  ],
  'location.csv': ['LOC_NAME', 'LOC_STRASSE', 'LOC_PLZ', 'LOC_ORT', 'LOC_LAND'],
  'cashregister.csv': ['KASSE_SERIENNR', 'KASSE_BASISWAEH_CODE'],
  'tse.csv': [
    'TSE_ID',
    'TSE_SERIAL',
    'TSE_SIG_ALGO',
    'TSE_ZEITFORMAT',
    'TSE_PD_ENCODING',
    'TSE_PUBLIC_KEY',
    'TSE_ZERTIFIKAT_I',
  ],
  'vat.csv': ['UST_SCHLUESSEL', 'UST_SATZ', 'UST_BESCHR'],
  'businesscases.csv': ['GV_TYP', 'UST_SCHLUESSEL', 'Z_UMS_BRUTTO', 'Z_UMS_NETTO', 'Z_UST'],
  'payment.csv': ['ZAHLART_TYP', 'Z_ZAHLART_BETRAG'],
  'cash_per_currency.csv': ['ZAHLART_WAEH', 'ZAHLART_BETRAG_WAEH'],
  'transactions.csv': ['BON_ID', 'BON_NR', 'BON_TYP', 'BON_START', 'BON_ENDE', 'BEDIENER_ID', 'UMS_BRUTTO'],
  'datapayment.csv': ['BON_ID', 'ZAHLART_TYP', 'ZAHLWAEH_CODE', 'BASISWAEH_BETRAG'],
  'lines.csv': ['BON_ID', 'POS_ZEILE', 'ARTIKELTEXT', 'GV_TYP', 'MENGE', 'STK_BR'],
  'transactions_tse.csv': ['BON_ID', 'TSE_ID'],
  'transactions_vat.csv': ['BON_ID', 'UST_SCHLUESSEL', 'BON_BRUTTO', 'BON_NETTO', 'BON_UST'],
  'lines_vat.csv': ['BON_ID', 'POS_ZEILE', 'UST_SCHLUESSEL'],
};

/** The GDPdU DTD's content model of a Table (gdpdu-01-09-2004.dtd, version 1.5), as the standard has it. */
const tableModel =
  '(URL, Name?, Description?, Validity?, (ANSI | Macintosh | OEM | UTF16 | UTF7 | UTF8)?, (DecimalSymbol, DigitGroupingSymbol)?, SkipNumBytes?, Range?, Epoch?, (VariableLength | FixedLength))';

interface XmlElement {
  name: string;
  children: XmlElement[];
  text: string;
}

/** index.xml as elements: a reader of this one document's shape (no attributes, no mixed content). */
function parseXml(xml: string): XmlElement {
  const root: XmlElement = { name: '#document', children: [], text: '' };
  const open: XmlElement[] = [root];
  const body = xml.replace(/<\?[\s\S]*?\?>|<!--[\s\S]*?-->|<!DOCTYPE[^>]*>/g, '');
  const decode = (value: string) =>
    value
      .replace(/&#(\d+);/g, (_, code: string) => String.fromCharCode(Number(code)))
      .replace(/&lt;/g, '<')
      .replace(/&gt;/g, '>')
      .replace(/&quot;/g, '"')
      .replace(/&amp;/g, '&');
  for (const [, text, close, name, empty] of body.matchAll(/([^<]*)<(\/?)([A-Za-z0-9_]+)\s*(\/?)>/g)) {
    open.at(-1)!.text += decode(text);
    if (close) {
      const done = open.pop()!;
      assert.equal(done.name, name, `</${name}> closes <${done.name}>`);
    } else {
      const element: XmlElement = { name: name, children: [], text: '' };
      open.at(-1)!.children.push(element);
      if (!empty) open.push(element);
    }
  }
  assert.equal(open.length, 1, 'every element is closed');
  return root.children[0];
}

/** A DTD's element declarations: each element's content model (EMPTY, (#PCDATA) or its children). */
function dtdModels(dtd: string): Map<string, string> {
  const models = new Map<string, string>();
  for (const [, name, model] of dtd.matchAll(/<!ELEMENT\s+(\w+)\s+([^>]+)>/g)) models.set(name, model.trim());
  return models;
}

/**
 * Whether an element's children follow its content model: the model as a regular expression over
 * the children's names (`,` a sequence, `|` a choice, `? * +` as in the DTD).
 */
function followsModel(model: string, children: string[]): boolean {
  if (model === 'EMPTY') return children.length === 0;
  if (model.includes('#PCDATA')) return children.length === 0;
  const pattern = model
    .replace(/\s+/g, '')
    .replace(/\(/g, '(?:')
    .replace(/([A-Za-z0-9_]+)/g, '(?:$1;)')
    .replace(/,/g, '');
  return new RegExp(`^${pattern}$`).test(children.map((c) => `${c};`).join(''));
}

/** Every element of index.xml against the DTD: the elements it declares, in its order. */
function dtdProblems(element: XmlElement, models: Map<string, string>): string[] {
  const model = models.get(element.name);
  if (!model) return [`<${element.name}> is not declared`];
  const children = element.children.map((c) => c.name);
  const here = followsModel(model, children) ? [] : [`<${element.name}>: ${children.join(', ')} against ${model}`];
  return [...here, ...element.children.flatMap((c) => dtdProblems(c, models))];
}

const child = (element: XmlElement, name: string) => element.children.find((c) => c.name === name);

interface Table {
  url: string;
  columns: string[];
  rows: Record<string, string>[];
}

/**
 * The ZIP as an auditor's import reads it: index.xml checked against the DTD the ZIP ships, each
 * table in UTF-8 with its header skipped (Range from line 2), its columns with their types, and each
 * CSV parsed and held against them.
 */
function readExport(zip: Uint8Array): Map<string, Table> {
  const files = unzipSync(zip);
  const dtdFile = files['gdpdu-01-09-2004.dtd'];
  assert.ok(dtdFile, 'the DTD index.xml names is in the ZIP');
  const models = dtdModels(strFromU8(dtdFile));
  assert.equal(models.get('Table'), tableModel, "the DTD is GDPdU's of 1 September 2004");
  const indexText = strFromU8(files['index.xml']);
  assert.match(indexText, /<!DOCTYPE DataSet SYSTEM "gdpdu-01-09-2004\.dtd">/);
  const index = parseXml(indexText);
  assert.deepEqual(dtdProblems(index, models), [], 'index.xml follows the DTD');

  const tables = new Map<string, Table>();
  for (const table of child(index, 'Media')!.children.filter((c) => c.name === 'Table')) {
    const url = child(table, 'URL')!.text;
    assert.ok(child(table, 'UTF8'), `${url} declares UTF-8`);
    assert.equal(child(child(table, 'Range')!, 'From')!.text, '2', `${url} skips its header line`);
    const variable = child(table, 'VariableLength')!;
    assert.equal(child(variable, 'RecordDelimiter')!.text, '\r\n');
    const declared = variable.children
      .filter((c) => c.name === 'VariableColumn')
      .map((c) => {
        const numeric = child(c, 'Numeric');
        const name = child(c, 'Name')!.text;
        return numeric ? `${name}#${child(numeric, 'Accuracy')?.text ?? 0}` : name;
      });
    assert.deepEqual(declared, specification[url], `${url}: the specification's columns and Accuracy`);
    const columns = declared.map((c) => c.split('#')[0]);
    const file = files[url];
    assert.ok(file, `${url} is in the ZIP`);
    const lines = strFromU8(file).split('\r\n');
    assert.equal(lines.pop(), '', `${url} ends with a line break`);
    assert.deepEqual(parseLine(lines[0]), columns, `${url}'s header is index.xml's columns`);
    const rows = lines.slice(1).map((line, n) => {
      const values = parseLine(line);
      assert.equal(values.length, columns.length, `${url} line ${n + 2} has every column`);
      declared.forEach((column, i) => {
        const [, places] = column.split('#');
        if (places === undefined || values[i] === '') return;
        const form = places === '0' ? /^-?\d+$/ : new RegExp(`^-?\\d+,\\d{${places}}$`);
        assert.match(values[i], form, `${url} line ${n + 2} ${column}: ${values[i]}`);
      });
      return Object.fromEntries(columns.map((c, i) => [c, values[i]]));
    });
    for (const column of mandatory[url] ?? [])
      rows.forEach((row, n) => assert.notEqual(row[column], '', `${url} line ${n + 2}: ${column} is filled`));
    tables.set(url, { url, columns, rows });
  }
  assert.deepEqual([...tables.keys()].sort(), Object.keys(specification).sort(), 'every file of the specification');
  return tables;
}

const cents = (decimal: string) => Math.round(Number(decimal.replace(',', '.')) * 100);

/** The export's cash per Vorgang against the cash book's movements: every difference, named. */
function differences(
  payments: Record<string, string>[],
  book: { voucher: string; amountIn: number; amountOut: number }[],
): string[] {
  const cash = new Map<string, number>();
  for (const row of payments)
    if (row.ZAHLART_TYP === 'Bar') cash.set(row.BON_ID, (cash.get(row.BON_ID) ?? 0) + cents(row.BASISWAEH_BETRAG));
  const found: string[] = [];
  for (const m of book) {
    const exported = cash.get(m.voucher);
    if (exported !== m.amountIn - m.amountOut)
      found.push(`${m.voucher}: book ${m.amountIn - m.amountOut}, export ${exported}`);
    cash.delete(m.voucher);
  }
  for (const [bon, amount] of cash) found.push(`${bon}: export ${amount} in cash, not in the book`);
  return found;
}

describeApi('fiscal: the DSFinV-K export of a period', (t) => {
  let shop: ListeningShop;
  let office = '';
  before(async () => {
    shop = await listenShop(t, (config) => ({ fiscal: { ...config.fiscal, mode: 'test', country: 'DE' } }));
    office = await t.office();
  });
  after(() => shop.close());
  beforeEach(() => t.reset());

  const get = (path: string) => shop.http.get(path).set('Authorization', office);
  const post = (path: string, body: object) => shop.http.post(path).set('Authorization', office).send(body);
  const signing = async (till: number) =>
    assert.equal(
      (
        await shop.http
          .put(`/api/tills/${till}/fiscal`)
          .set('Authorization', office)
          .send({ mode: 'test', country: null })
      ).status,
      200,
    );
  const download = (path: string) =>
    get(path)
      .buffer(true)
      .parse((r, done) => {
        const chunks: Buffer[] = [];
        r.on('data', (c: Buffer) => chunks.push(c));
        r.on('end', () => done(null, Buffer.concat(chunks)));
      });

  it("a day of two tills passes an auditor's reading: the DTD ships, index.xml follows it, every table is UTF-8 from line 2 with the specification's columns, every Bon has its TSE row, the TSE numbers run from 1 without a gap, the cash equals the book", async () => {
    const tills = (await get('/api/tills')).body;
    const till = tills.tills[0].id as number;
    const today = tills.today as string;
    const created = await post('/api/tills', { name: 'Kasse 2', openingBalance: 5000 });
    assert.equal(created.status, 201, JSON.stringify(created.body));
    const second = created.body.id as number;
    // The second till stands elsewhere; the first at the paper's address under a name of its own (the demo's).
    const placed = await shop.http
      .put(`/api/tills/${second}/location`)
      .set('Authorization', office)
      .send({ name: 'Verkaufsstand am Markt', street: 'Marktplatz 3', postcode: '80331', town: '' });
    assert.equal(placed.status, 200, JSON.stringify(placed.body));
    assert.deepEqual(placed.body.location, {
      name: 'Verkaufsstand am Markt',
      street: 'Marktplatz 3',
      postcode: '80331',
      town: '',
    });
    const zeitung = await itemId(t.db, 'Zeitung');
    // The second till takes cash before its TSE goes into service: a Bon without a signature.
    assert.equal(
      (await post(`/api/tills/${second}/movements`, { kind: 'income', amount: 250, reason: 'Spende' })).status,
      201,
    );
    await signing(till);
    await signing(second);

    await bookPaidOrder(t.db, await vendorId(t.db, 'DEMO-3'), new Date(), { prints: 10, digital: 0, tip: 1600 });
    const credit = (await get('/api/counter/vendor').query({ vendor: 'DEMO-3' })).body.credit as number;
    const visit = (body: object) =>
      post('/api/counter/visits', { visitId: randomUUID(), cash: 0, payOut: false, items: [], ...body });
    const fromCredit = await visit({
      vendor: 'DEMO-3',
      tillId: till,
      items: [{ itemId: zeitung, quantity: 10 }],
      payOut: true,
      expectedCredit: credit,
    });
    assert.equal(fromCredit.status, 201, JSON.stringify(fromCredit.body));
    const cashSale = await visit({
      vendor: 'DEMO-4',
      tillId: till,
      items: [{ itemId: zeitung, quantity: 3 }],
      cash: 450,
      expectedCredit: 0,
    });
    assert.equal(cashSale.status, 201, JSON.stringify(cashSale.body));
    const secondSale = await visit({
      vendor: 'DEMO-5',
      tillId: second,
      items: [{ itemId: zeitung, quantity: 2 }],
      cash: 300,
      expectedCredit: 0,
    });
    assert.equal(secondSale.status, 201, JSON.stringify(secondSale.body));
    // A visit whose booking is refused (the credit changed meanwhile) after its TSE transaction
    // started: the transaction is CANCELLED, an aborted Bon with its TSE row.
    const aborted = await visit({
      vendor: 'DEMO-3',
      tillId: till,
      items: [{ itemId: zeitung, quantity: 1 }],
      expectedCredit: 12345,
    });
    assert.equal(aborted.status, 409, JSON.stringify(aborted.body));
    for (const movement of [
      { kind: 'bank_deposit', amount: 5000, reason: '' },
      { kind: 'expense', amount: 1234, reason: 'Briefmarken' },
      { kind: 'income', amount: 99, reason: 'Spende in die Kasse' },
    ])
      assert.equal((await post(`/api/tills/${till}/movements`, movement)).status, 201);
    const balances = (await get('/api/tills')).body.tills as { id: number; balance: number }[];
    const expected = balances.find((b) => b.id === till)!.balance;
    assert.equal(
      (await post(`/api/tills/${till}/closes`, { counted: expected + 7, expected, reason: 'Münze gefunden' })).status,
      201,
    );
    const expectedSecond = balances.find((b) => b.id === second)!.balance;
    assert.equal(
      (await post(`/api/tills/${second}/closes`, { counted: expectedSecond, expected: expectedSecond })).status,
      201,
    );
    assert.equal((await post('/api/fiscal/retry', {})).body.transactions.length, 0, 'all signed');

    const res = await download(`/api/tills/dsfinvk?from=${today}&to=${today}`);
    assert.equal(res.status, 200, String(res.body));
    assert.equal(res.headers['content-type'], 'application/zip');
    assert.match(res.headers['content-disposition'] ?? '', /dsfinvk_/);
    const tables = readExport(new Uint8Array(res.body as Buffer));
    const rows = (file: string) => tables.get(file)!.rows;

    // Each till signs with a client of its own, registered with the till's serial number: the
    // KASSE_SERIENNR of its close is the Kassen-Seriennummer in the QR codes of its receipts.
    const qrClients = async (visitId: string) => {
      const html = (await get(`/api/counter/visits/${visitId}/receipt`)).text;
      return [...html.matchAll(/<img class="tse-qr"[^>]*alt="([^"]*)"/g)].map((m) => m[1].split(';')[1]);
    };
    const registers = new Map(rows('cashregister.csv').map((row) => [row.Z_KASSE_ID, row.KASSE_SERIENNR]));
    assert.equal(registers.size, 2);
    assert.notEqual(registers.get(String(till)), registers.get(String(second)));
    for (const [tillId, visitId] of [
      [till, fromCredit.body.id],
      [till, cashSale.body.id],
      [second, secondSale.body.id],
    ] as [number, string][]) {
      const clients = await qrClients(visitId);
      assert.ok(clients.length > 0, `the receipt of ${visitId} has a QR code`);
      for (const client of clients) assert.equal(client, registers.get(String(tillId)), `till ${tillId}`);
    }

    // The aborted visit is a Bon of its own, signed by the TSE as cancelled.
    const abortBons = rows('transactions.csv').filter((row) => row.BON_TYP === 'AVBelegabbruch');
    assert.deepEqual(
      abortBons.map((row) => [row.Z_KASSE_ID, row.BON_NAME, row.UMS_BRUTTO]),
      [[String(till), 'Belegabbruch', '0,00']],
    );
    const abortTse = rows('transactions_tse.csv').find((row) => row.BON_ID === abortBons[0].BON_ID)!;
    assert.match(abortTse.TSE_VORGANGSDATEN, /^AVBelegabbruch\^0\.00_1\.50_0\.00_0\.00_0\.00\^$/);
    assert.notEqual(abortTse.TSE_TA_SIG, '');

    // The paper's master data from the settings, and a place for each till.
    const closing = rows('cashpointclosing.csv');
    assert.equal(closing.length, 2, 'one close of each till');
    for (const row of closing) {
      assert.deepEqual(
        [row.NAME, row.STRASSE, row.PLZ, row.ORT, row.LAND, row.STNR, row.USTID],
        ['Straßenblatt Demo', 'Musterstraße 12', '80331', 'München', 'DEU', '143/123/45678', 'DE123456789'],
      );
      assert.equal(row.TAXONOMIE_VERSION, '2.3');
    }
    assert.deepEqual(
      rows('location.csv').map((row) => [row.Z_KASSE_ID, row.LOC_NAME, row.LOC_STRASSE, row.LOC_PLZ, row.LOC_ORT]),
      [
        [String(till), 'Ausgabestelle im Büro', 'Musterstraße 12', '80331', 'München'],
        [String(second), 'Verkaufsstand am Markt', 'Marktplatz 3', '80331', 'München'],
      ],
    );

    // Every Bon has a row in transactions_tse.csv, and every row there a Bon; each names a TSE of
    // its close in tse.csv, with its signature or why it has none.
    const bons = rows('transactions.csv');
    const tse = rows('transactions_tse.csv');
    const bonKey = (row: Record<string, string>) => `${row.Z_KASSE_ID}/${row.Z_NR}/${row.BON_ID}`;
    assert.deepEqual(tse.map(bonKey).sort(), bons.map(bonKey).sort());
    const devices = rows('tse.csv');
    const serialOf = new Map(devices.map((row) => [`${row.Z_KASSE_ID}/${row.Z_NR}/${row.TSE_ID}`, row.TSE_SERIAL]));
    const signed = tse.filter((row) => !row.TSE_TA_FEHLER);
    for (const row of tse) assert.ok(serialOf.has(`${row.Z_KASSE_ID}/${row.Z_NR}/${row.TSE_ID}`), `TSE ${row.TSE_ID}`);
    for (const row of signed)
      for (const column of [
        'TSE_TANR',
        'TSE_TA_START',
        'TSE_TA_ENDE',
        'TSE_TA_VORGANGSART',
        'TSE_TA_SIGZ',
        'TSE_TA_SIG',
      ])
        assert.notEqual(row[column], '', `${row.BON_ID}: ${column}`);
    // The one Bon before the second till's TSE went into service says so; all others are signed.
    assert.deepEqual(
      tse.filter((row) => row.TSE_TA_FEHLER).map((row) => [row.Z_KASSE_ID, row.TSE_TA_FEHLER]),
      [[String(second), 'Vor Inbetriebnahme der TSE (die Kasse signierte noch nicht)']],
    );
    // Every transaction the TSE signed is in the export, the opening balances included: per TSE,
    // its transaction numbers run from 1 without a gap.
    const numbers = new Map<string, number[]>();
    for (const row of signed) {
      const serial = serialOf.get(`${row.Z_KASSE_ID}/${row.Z_NR}/${row.TSE_ID}`)!;
      numbers.set(serial, [...(numbers.get(serial) ?? []), Number(row.TSE_TANR)]);
    }
    const signedInBooks = await t
      .db('fiscal_transactions')
      .where({ state: 'signed', country: 'DE' })
      .count<{ count: string }[]>('* as count');
    assert.equal(signed.length, Number(signedInBooks[0].count), 'every signed transaction is exported');
    for (const [serial, list] of numbers)
      assert.deepEqual(
        list.sort((a, b) => a - b),
        list.map((_, n) => n + 1),
        `TSE ${serial}`,
      );
    const openings = bons.filter((row) => row.BON_NAME === 'Anfangsbestand');
    assert.deepEqual(
      openings.map((row) => [row.Z_KASSE_ID, row.BON_TYP, row.UMS_BRUTTO]),
      [
        [String(till), 'AVTransfer', '2000,00'],
        [String(second), 'AVTransfer', '52,50'],
      ],
    );

    // The cash of the first till's Vorgänge equals its cash book to the cent (the opening balance
    // is the book's start, not a movement of it); a planted difference is found.
    const book = (await get(`/api/tills/${till}/book?from=${today}&to=${today}`)).body.movements as {
      voucher: string;
      amountIn: number;
      amountOut: number;
    }[];
    assert.equal(book.length, 6, 'payout, cash for copies, deposit, expense, income, difference');
    const openingBons = new Set(openings.map((row) => row.BON_ID));
    const payments = rows('datapayment.csv').filter(
      (row) => row.Z_KASSE_ID === String(till) && !openingBons.has(row.BON_ID),
    );
    assert.deepEqual(differences(payments, book), []);
    const bar = payments.findIndex((row) => row.ZAHLART_TYP === 'Bar');
    const planted = payments.map((row, n) =>
      n === bar
        ? { ...row, BASISWAEH_BETRAG: ((cents(row.BASISWAEH_BETRAG) + 1) / 100).toFixed(2).replace('.', ',') }
        : row,
    );
    assert.equal(differences(planted, book).length, 1);
    assert.equal(
      differences(
        payments.filter((_, n) => n !== bar),
        book,
      ).length,
      1,
    );

    // The visit paid from the credit alone is a Vorgang without cash: Umsatz at 7 %, paid Unbar,
    // its amounts to five places as the specification's Accuracy has them.
    const unbar = payments.filter((row) => row.ZAHLART_TYP === 'Unbar');
    assert.deepEqual(
      unbar.map((row) => cents(row.BASISWAEH_BETRAG)),
      [1500],
    );
    const sale = rows('transactions_vat.csv').find((row) => row.BON_ID === unbar[0].BON_ID)!;
    assert.deepEqual(
      [sale.UST_SCHLUESSEL, sale.BON_BRUTTO, sale.BON_NETTO, sale.BON_UST],
      ['2', '15,00000', '14,02000', '0,98000'],
    );

    // The first till's close: its cash payments are the opening balance and the book's movements.
    const first = closing.find((row) => row.Z_KASSE_ID === String(till))!;
    assert.equal(cents(first.Z_SE_BARZAHLUNGEN), 200000 + book.reduce((sum, m) => sum + m.amountIn - m.amountOut, 0));
    // tse.csv: the TSE's certificate (base64 of its DER, split at 1000 characters) is for its key.
    for (const device of devices) {
      assert.equal(device.TSE_SIG_ALGO, 'ecdsa-plain-SHA384');
      const certificate = new X509Certificate(
        Buffer.from(device.TSE_ZERTIFIKAT_I + device.TSE_ZERTIFIKAT_II, 'base64'),
      );
      const spki = certificate.publicKey.export({ format: 'der', type: 'spki' });
      assert.equal(spki.subarray(spki.length - 97).toString('base64'), device.TSE_PUBLIC_KEY);
    }
    const cases = rows('businesscases.csv')
      .filter((row) => row.Z_KASSE_ID === String(till))
      .map((row) => [row.GV_TYP, row.UST_SCHLUESSEL, row.Z_UMS_BRUTTO]);
    assert.deepEqual(
      cases.sort(),
      [
        ['Anfangsbestand', '5', '2000,00000'],
        // the payout and the expense: sums per business case and VAT key, as the close reports them
        ['Auszahlung', '5', `-${((book[0].amountOut + 1234) / 100).toFixed(2).replace('.', ',')}000`],
        ['DifferenzSollIst', '5', '0,07000'],
        ['Einzahlung', '5', '0,99000'],
        ['Geldtransit', '5', '-50,00000'],
        ['Umsatz', '2', '19,50000'],
      ].sort(),
    );
  });

  it('a Bon the TSE could not sign has its TSE row saying so, naming the TSE of its till', async () => {
    const tills = (await get('/api/tills')).body;
    const till = tills.tills[0].id as number;
    const today = tills.today as string;
    await signing(till);
    assert.equal((await post('/api/fiscal/retry', {})).body.transactions.length, 0, 'the opening balance is signed');
    const { apiKey } = await simulatorCredentials(t.db);
    const offline = (value: boolean) =>
      fetch(`${shop.url}/fiscal-sandbox/offline`, {
        method: 'POST',
        headers: { Authorization: `Bearer ${apiKey}`, 'Content-Type': 'application/json' },
        body: JSON.stringify({ offline: value }),
      });
    assert.equal((await offline(true)).status, 200);
    try {
      assert.equal(
        (await post(`/api/tills/${till}/movements`, { kind: 'income', amount: 500, reason: 'Spende' })).status,
        201,
      );
      await post('/api/fiscal/retry', {});
      const balance = ((await get('/api/tills')).body.tills as { id: number; balance: number }[]).find(
        (b) => b.id === till,
      )!.balance;
      assert.equal((await post(`/api/tills/${till}/closes`, { counted: balance, expected: balance })).status, 201);
    } finally {
      await offline(false);
    }
    const res = await download(`/api/tills/dsfinvk?from=${today}&to=${today}`);
    assert.equal(res.status, 200, String(res.body));
    const tables = readExport(new Uint8Array(res.body as Buffer));
    const tse = tables.get('transactions_tse.csv')!.rows;
    assert.deepEqual(
      tse.map((row) => [row.TSE_ID, row.TSE_TANR, row.TSE_TA_SIG !== '', row.TSE_TA_FEHLER.replace(/:.*/s, '')]),
      [
        ['1', '1', true, ''],
        ['1', '', false, 'TSE ausgefallen'],
      ],
      'the opening balance signed, the donation with the TSE failure',
    );
    assert.deepEqual(
      tables.get('tse.csv')!.rows.map((row) => row.TSE_ID),
      ['1'],
    );
  });

  it("refuses while the paper's address or tax number is not set, naming what is missing (German and English)", async () => {
    const today = (await get('/api/tills')).body.today as string;
    const cleared = await withForm(shop.http.put('/api/settings').set('Authorization', office), {
      companyStreet: '',
      companyTown: '',
      taxNumber: '',
      vatId: '',
    });
    assert.equal(cleared.status, 200, JSON.stringify(cleared.body));
    const german = await get(`/api/tills/dsfinvk?from=${today}&to=${today}`).set('Accept-Language', 'de');
    assert.equal(german.status, 409);
    assert.equal(
      german.body.message,
      'Der DSFinV-K-Export braucht in den Einstellungen (Anschrift und Steuer): Straße, Ort, Steuernummer oder Umsatzsteuer-Identifikationsnummer.',
    );
    const english = await get(`/api/tills/dsfinvk?from=${today}&to=${today}`).set('Accept-Language', 'en');
    assert.equal(
      english.body.message,
      'The DSFinV-K export needs in the settings (Address and tax): street, town, tax number or VAT identification number.',
    );
    // The VAT id alone is enough of a tax identity; a malformed one is refused where it is entered.
    const set = await withForm(shop.http.put('/api/settings').set('Authorization', office), {
      companyStreet: 'Hauptstraße 1',
      companyTown: 'Köln',
      vatId: 'de 987654321',
    });
    assert.equal(set.status, 200, JSON.stringify(set.body));
    assert.deepEqual(
      [set.body.companyStreet, set.body.companyPostcode, set.body.companyTown, set.body.vatId, set.body.taxNumber],
      ['Hauptstraße 1', '80331', 'Köln', 'DE987654321', ''],
    );
    assert.equal((await get(`/api/tills/dsfinvk?from=${today}&to=${today}`)).status, 200);
    const bad = await withForm(shop.http.put('/api/settings').set('Authorization', office), {
      vatId: '123',
      companyCountry: 'Deutschland',
    });
    assert.equal(bad.status, 400, JSON.stringify(bad.body));
    assert.deepEqual(Object.keys(bad.body.errors as object).sort(), ['companyCountry', 'vatId']);
  });
});
