import assert from 'node:assert/strict';
import { createDecipheriv, createHash, createPublicKey, randomUUID, verify, type KeyObject } from 'node:crypto';
import type { Db } from '../../api/src/db/connection.ts';
import { uuidFrom } from '../../api/src/fiscal/ids.ts';
import type { AtSignature } from '../../api/src/fiscal/port.ts';
import { simulatorCredentials } from '../../api/src/fiscal/sandbox/keys.ts';
import { describeApi } from '../support/env.ts';
import { itemId } from '../support/orders.ts';
import { listenShop, type ListeningShop } from '../support/shop-server.ts';

// Austria's signing (RKSV) through the fiskaly SIGN AT adapter against the local simulator of SIGN AT
// (test mode without credentials). A day of the counter becomes a chain of receipts from the start
// receipt; the check here is the tax office's, written on its own from the RKSV (BGBl. II Nr.
// 410/2015, Anlage "Detailspezifikation") without the product's code: each JWS verified with the
// unit's public key (ES256) or, while the unit had failed, holding "Sicherheitseinrichtung
// ausgefallen"; each chained to the one before (SHA-256 of its JWS, 8 bytes); the turnover counter
// decrypted with the register's AES key (AES-256-ICM) and equal to the running sum, or "STO"/"TRA"
// for a storno and a training receipt. The till's DEP export holds exactly those receipts. The
// adapter's requests are SIGN AT's as https://developer.fiskaly.com/api/rksv/v1 documents them.

interface Tx {
  id: number;
  business_case: string;
  state: string;
  country: string;
  signature: AtSignature | null;
}

const transactions = async (db: Db) => (await db('fiscal_transactions').orderBy('id').select('*')) as Tx[];

interface Dep {
  'Belege-Gruppe': { Signaturzertifikat: string; Zertifizierungsstellen: string[]; 'Belege-kompakt': string[] }[];
}

/** The QR codes' texts in a receipt's HTML: the pictures' alt texts. */
const qrTexts = (html: string) =>
  [...html.matchAll(/<img class="tse-qr rksv-qr"[^>]*alt="([^"]*)"/g)].map((m) => m[1].replace(/&amp;/g, '&'));

// ---- The tax office's check, from the RKSV alone ----

const b64url = (text: string) => Buffer.from(text, 'utf8').toString('base64url');
const failedValue = b64url('Sicherheitseinrichtung ausgefallen');

const cents = (amount: string) => {
  assert.match(amount, /^-?\d+,\d\d$/, `an amount of the code: ${amount}`);
  const [whole, part] = amount.replace('-', '').split(',');
  return (amount.startsWith('-') ? -1 : 1) * (Number(whole) * 100 + Number(part));
};

const firstEight = (text: string) =>
  createHash('sha256').update(text, 'utf8').digest().subarray(0, 8).toString('base64');

/** The counter back in cents: AES-256 in ICM, the IV the first 16 bytes of SHA-256(Kassen-ID ‖ Belegnummer). */
function counterOf(aesKey: Buffer, kassenId: string, number: string, field: string): number {
  const iv = createHash('sha256').update(`${kassenId}${number}`, 'utf8').digest().subarray(0, 16);
  const decipher = createDecipheriv('aes-256-ctr', aesKey, iv);
  const plain = Buffer.concat([decipher.update(Buffer.from(field, 'base64')), decipher.final()]);
  return Number(plain.readBigInt64BE());
}

interface Checked {
  number: number;
  amounts: number[];
  counter: 'turnover' | 'STO' | 'TRA';
  failed: boolean;
}

/**
 * Checks a register's receipts in the order of the chain, from its start receipt, and answers what
 * each is. Throws where the chain breaks: a signature that does not hold, a gap, a chain value that
 * names another receipt, a counter that is not the running sum.
 */
function checkChain(jwsList: string[], key: KeyObject, till: { id: string; aesKey: Buffer }): Checked[] {
  let turnover = 0;
  let previous: string | null = null;
  const out: Checked[] = [];
  for (const jws of jwsList) {
    const [header, payload, signature] = jws.split('.');
    assert.deepEqual(JSON.parse(Buffer.from(header, 'base64url').toString('utf8')), { alg: 'ES256' });
    const failed = signature === failedValue;
    if (!failed)
      assert.ok(
        verify(
          'sha256',
          Buffer.from(`${header}.${payload}`),
          { key, dsaEncoding: 'ieee-p1363' },
          Buffer.from(signature, 'base64url'),
        ),
        'the signature holds',
      );
    const f = Buffer.from(payload, 'base64url').toString('utf8').split('_');
    assert.equal(f.length, 13);
    assert.equal(f[0], '');
    assert.equal(f[1], 'R1-AT0');
    assert.equal(f[2], till.id, 'one Kassen-ID');
    const number = Number(f[3]);
    assert.equal(number, previous === null ? 1 : out.at(-1)!.number + 1, 'numbered without a gap from 1');
    assert.match(f[4], /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d$/);
    assert.equal(f[12], firstEight(previous ?? till.id), `chain value of receipt ${number}`);
    const amounts = f.slice(5, 10).map(cents);
    const sum = amounts.reduce((a, b) => a + b, 0);
    let counter: Checked['counter'] = 'turnover';
    if (f[10] === 'VFJB') counter = 'TRA';
    else {
      turnover += sum;
      if (f[10] === 'U1RP') counter = 'STO';
      else assert.equal(counterOf(till.aesKey, till.id, f[3], f[10]), turnover, `counter of receipt ${number}`);
    }
    out.push({ number, amounts, counter, failed });
    previous = jws;
  }
  return out;
}

/** The check value of an AES key FinanzOnline asks (BMF, a-sit-plus/at-registrierkassen-mustercode, N = 3). */
const checkValue = (base64Key: string) =>
  createHash('sha256').update(base64Key, 'utf8').digest().subarray(0, 3).toString('base64').replace(/=/g, '');

// ---- What the adapter sends ----

interface Call {
  method: string;
  path: string;
  body: Record<string, unknown> | null;
}

describeApi('fiscal: signing the till in Austria (fiskaly SIGN AT, against its local simulator)', (t) => {
  let shop: ListeningShop;
  let office = '';
  let calls: Call[] = [];
  const realFetch = globalThis.fetch;
  before(async () => {
    shop = await listenShop(t, (config) => ({ fiscal: { ...config.fiscal, mode: 'off', country: 'AT' } }));
    office = await t.office();
    // Every request the adapter sends to SIGN AT, as it went out.
    globalThis.fetch = (input, init) => {
      const url = new URL(String(input instanceof Request ? input.url : input));
      const at = url.pathname.indexOf('/fiscal-sandbox/api/rksv/v1');
      if (at >= 0)
        calls.push({
          method: init?.method ?? 'GET',
          path: `${url.pathname.slice(at + '/fiscal-sandbox/api/rksv/v1'.length)}${url.search}`,
          body: typeof init?.body === 'string' ? (JSON.parse(init.body) as Record<string, unknown>) : null,
        });
      return realFetch(input, init);
    };
  });
  after(async () => {
    globalThis.fetch = realFetch;
    await shop.close();
  });
  beforeEach(async () => {
    await t.reset();
    calls = [];
    // Newspapers sell at Austria's reduced rate of 10 % (§10 (2) UStG 1994).
    await t.db('settings').update({ vat_rate: 1000, vat_id: 'ATU12345678' });
  });

  const get = (path: string) => shop.http.get(path).set('Authorization', office);
  const post = (path: string, body: object) => shop.http.post(path).set('Authorization', office).send(body);

  async function tillId(): Promise<number> {
    const id = (await get('/api/tills')).body.tills[0].id as number;
    const res = await shop.http
      .put(`/api/tills/${id}/fiscal`)
      .set('Authorization', office)
      .send({ mode: 'test', country: 'AT' });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.equal(res.body.effectiveCountry, 'AT');
    assert.equal(res.body.simulator, true);
    return id;
  }

  async function visit(body: object) {
    const res = await post('/api/counter/visits', {
      visitId: randomUUID(),
      cash: 0,
      payOut: false,
      items: [],
      ...body,
    });
    assert.equal(res.status, 201, JSON.stringify(res.body));
    return res.body as { id: string };
  }

  const creditOf = async (vendor: string) => (await get('/api/counter/vendor').query({ vendor })).body.credit as number;

  /** The unit's public key and the register's Kassen-ID and AES key, as FinanzOnline holds them. */
  async function registration(till: number) {
    const unit = await t.db('fiscal_sandbox_rksv_scu').first('public_key', 'key_id');
    const key = createPublicKey({ key: Buffer.from(unit.public_key, 'base64'), format: 'der', type: 'spki' });
    const row = await t.db('fiscal_rksv_tills').where({ till_id: till }).first('cash_register_id', 'register_id');
    const register = await t.db('fiscal_sandbox_rksv_registers').where({ id: row.register_id }).first('aes_key');
    return {
      key,
      keyId: unit.key_id as string,
      registerId: row.register_id as string,
      till: { id: row.cash_register_id as string, aesKey: Buffer.from(register.aes_key, 'base64') },
      aesKey: register.aes_key as string,
    };
  }

  const dep = async (till: number, from: string, to = from) => {
    const res = await get(`/api/tills/dep7?from=${from}&to=${to}&till=${till}`);
    assert.equal(res.status, 200, JSON.stringify(res.body));
    return res.body as Dep;
  };

  const receipts = (till: number) =>
    t
      .db('fiscal_rksv_receipts')
      .where({ till_id: till })
      .orderBy('number')
      .select<{ kind: string; jws: string; signed: boolean }[]>('kind', 'jws', 'signed');

  async function cashSale(till: number, quantity: number, cash: number) {
    const zeitung = await itemId(t.db, 'Zeitung');
    const sale = await visit({
      vendor: 'DEMO-4',
      tillId: till,
      items: [{ itemId: zeitung, quantity }],
      cash,
      expectedCredit: await creditOf('DEMO-4'),
    });
    const receipt = await get(`/api/counter/visits/${sale.id}/receipt`);
    assert.equal(receipt.status, 200);
    return receipt.text;
  }

  const failUnit = async (failing: boolean) => {
    const { apiKey } = await simulatorCredentials(t.db);
    const res = await realFetch(`${shop.url}/fiscal-sandbox/rksv/scu`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${apiKey}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({ failing }),
    });
    assert.equal(res.status, 200);
  };

  /**
   * A storno or training receipt as the core asks the port for one: the counter has no screen that
   * cancels a sale or trains staff, so the transaction is made here as transactions.ts makes others.
   */
  async function special(till: number, purpose: 'storno' | 'training', gross: number) {
    const source = `${purpose}:${randomUUID()}`;
    await t.db('fiscal_transactions').insert({
      till_id: till,
      source,
      business_case: 'Umsatz',
      country: 'AT',
      mode: 'test',
      tx_id: uuidFrom(`test:${source}`),
      request: JSON.stringify({
        kind: 'receipt',
        purpose,
        lines: [{ businessCase: 'Umsatz', label: 'Zeitung', vatRate: 1000, gross }],
        payments: [{ type: 'Bar', amount: gross }],
      }),
    });
    assert.equal((await post('/api/fiscal/retry', {})).status, 200);
  }

  it('a day with a failed unit: start receipt, sales, "Sicherheitseinrichtung ausgefallen", Sammelbeleg, storno and training verify as one chain, and the till’s DEP holds exactly it', async () => {
    const till = await tillId();
    assert.equal((await post('/api/fiscal/retry', {})).status, 200);
    const before = await cashSale(till, 4, 600);

    const failedSince = async () =>
      ((await get('/api/fiscal')).body.tills as { tillId: number; rksv: { unitFailedSince: string | null } }[]).find(
        (x) => x.tillId === till,
      )!.rksv.unitFailedSince;
    assert.equal(await failedSince(), null);
    await failUnit(true);
    let during: string;
    try {
      during = await cashSale(till, 2, 300);
      // Staff see since when the unit has failed (§17 (4) RKSV: reported after 48 hours).
      assert.ok(Date.parse((await failedSince())!) <= Date.now());
    } finally {
      await failUnit(false);
    }
    const after = await cashSale(till, 1, 150);
    assert.equal(await failedSince(), null, 'the Sammelbeleg ends the failure');
    await special(till, 'storno', -150);
    await special(till, 'training', 300);

    const chain = await receipts(till);
    assert.deepEqual(
      chain.map((r) => [r.kind, r.signed]),
      [
        ['Startbeleg', true],
        ['Nullbeleg', true], // the opening balance: cash without a sale
        ['Barumsatz', true],
        ['Barumsatz', false], // the unit had failed: in the chain all the same (§17 RKSV)
        ['Sammelbeleg', true], // the unit back: a signed zero receipt first
        ['Barumsatz', true],
        ['Storno', true],
        ['Training', true],
      ],
    );
    const { key, till: registered } = await registration(till);
    const checked = checkChain(
      chain.map((r) => r.jws),
      key,
      registered,
    );
    assert.deepEqual(
      checked.map((c) => [c.amounts[1], c.counter, c.failed]),
      [
        [0, 'turnover', false],
        [0, 'turnover', false],
        [600, 'turnover', false],
        [300, 'turnover', true],
        [0, 'turnover', false],
        [150, 'turnover', false],
        [-150, 'STO', false],
        [300, 'TRA', false],
      ],
    );

    // Every sale was signed when it was made: none waits to be signed later.
    const all = await transactions(t.db);
    assert.ok(all.every((tx) => tx.state === 'signed' && tx.country === 'AT'));
    assert.deepEqual((await get('/api/fiscal/failures')).body.transactions, []);

    // The receipts print their QR codes; the one made while the unit had failed says so.
    assert.equal(qrTexts(before).length, 1);
    assert.ok(!before.includes('Sicherheitseinrichtung ausgefallen'));
    assert.deepEqual(qrTexts(during), [all.find((tx) => tx.signature?.signed === false)!.signature!.qr]);
    assert.ok(during.includes('Sicherheitseinrichtung ausgefallen'));
    assert.ok(qrTexts(during)[0].endsWith(`_${Buffer.from('Sicherheitseinrichtung ausgefallen').toString('base64')}`));
    assert.ok(!after.includes('Sicherheitseinrichtung ausgefallen'));

    // The till's DEP holds exactly these receipts, in order; one planted or lost breaks the check.
    const today = chain[0].jws && Buffer.from(chain[0].jws.split('.')[1], 'base64url').toString().split('_')[4];
    const day = await dep(till, today.slice(0, 10));
    assert.equal(day['Belege-Gruppe'].length, 1, 'one group: one register, one unit');
    const held = day['Belege-Gruppe'][0]['Belege-kompakt'];
    assert.deepEqual(
      held,
      chain.map((r) => r.jws),
    );
    assert.throws(() => checkChain([...held.slice(0, 3), held[2], ...held.slice(3)], key, registered));
    assert.throws(() => checkChain([...held.slice(0, 2), ...held.slice(3)], key, registered));
    assert.deepEqual(await dep(till, '2020-01-01'), { 'Belege-Gruppe': [] });

    // Without a till the DEP is refused: the BMF's check reads one Kassen-ID per DEP.
    const mixed = await get(`/api/tills/dep7?from=${today.slice(0, 10)}&to=${today.slice(0, 10)}`);
    assert.equal(mixed.status, 400);
    assert.match(JSON.stringify(mixed.body), /a DEP holds the receipts of one cash register/);
  });

  it('the adapter sends SIGN AT’s documented requests: unit, cash register, receipts under the transaction’s id', async () => {
    const till = await tillId();
    assert.equal((await post('/api/fiscal/retry', {})).status, 200);
    await cashSale(till, 2, 300);
    const { registerId } = await registration(till);
    const { apiKey } = await simulatorCredentials(t.db);
    const scuId = uuidFrom(`simulator-scu:${apiKey}`);
    const opening = (await transactions(t.db))[0];
    const sale = (await transactions(t.db))[1];
    const txIds = (await t.db('fiscal_transactions').orderBy('id').pluck('tx_id')) as string[];
    assert.equal(opening.business_case, 'Anfangsbestand');
    assert.equal(sale.business_case, 'Umsatz');
    // https://developer.fiskaly.com/api/rksv/v1: authenticate, create and initialise the signature
    // creation unit for the legal entity, create the cash register, register and initialise it
    // (its start receipt), sign each receipt with PUT under an id the client chooses, list the receipts.
    assert.deepEqual(
      calls.map((c) => `${c.method} ${c.path}`),
      [
        'POST /auth',
        `GET /signature-creation-unit/${scuId}`,
        `PUT /signature-creation-unit/${scuId}`,
        `PATCH /signature-creation-unit/${scuId}`,
        `GET /cash-register/${registerId}`,
        `PUT /cash-register/${registerId}`,
        `PATCH /cash-register/${registerId}`,
        `PATCH /cash-register/${registerId}`,
        `PUT /cash-register/${registerId}/receipt/${txIds[0]}`,
        `GET /cash-register/${registerId}/receipt?order_by=receipt_number&order=ASC&limit=100&offset=0`,
        `PUT /cash-register/${registerId}/receipt/${txIds[1]}`,
        `GET /cash-register/${registerId}/receipt?order_by=receipt_number&order=ASC&limit=100&offset=2`,
      ],
    );
    assert.deepEqual(calls[2].body, {
      legal_entity_id: { vat_id: 'ATU12345678' },
      legal_entity_name: (await t.db('settings').first('newspaper_name')).newspaper_name,
    });
    assert.deepEqual(calls[3].body, { state: 'INITIALIZED' });
    assert.deepEqual(calls[6].body, { state: 'REGISTERED' });
    assert.deepEqual(calls[7].body, { state: 'INITIALIZED' });
    assert.deepEqual(calls[10].body, {
      receipt_type: 'NORMAL',
      schema: {
        raw: {
          gross_amount_standard: '0.00',
          gross_amount_reduced_1: '3.00',
          gross_amount_reduced_2: '0.00',
          gross_amount_zero: '0.00',
          gross_amount_special: '0.00',
        },
      },
    });

    // What the office registers at FinanzOnline: the Kassen-ID, the AES key once, and its check value.
    const { till: registered, aesKey, keyId } = await registration(till);
    const first = await get(`/api/tills/${till}/rksv`);
    assert.equal(first.status, 200, JSON.stringify(first.body));
    assert.equal(first.body.cashRegisterId, registered.id);
    assert.equal(first.body.aesKey, aesKey);
    assert.equal(first.body.aesKeyCheckValue, checkValue(aesKey));
    assert.match(first.body.aesKeyCheckValue, /^[A-Za-z0-9+/]{4}$/);
    assert.equal(first.body.certificateSerial, keyId);
    const second = await get(`/api/tills/${till}/rksv`);
    assert.equal(second.body.aesKey, null, 'the key is shown once');
    assert.equal(second.body.aesKeyCheckValue, checkValue(aesKey), 'its check value every time');
    const overview = await get('/api/fiscal');
    const row = overview.body.tills.find((x: { tillId: number }) => x.tillId === till);
    assert.deepEqual(row.rksv, {
      cashRegisterId: registered.id,
      aesKeyCheckValue: checkValue(aesKey),
      unitFailedSince: null,
    });
  });

  it('a sale at a rate without an RKSV slot (7 %) is refused before anything is booked', async () => {
    const till = await tillId();
    await t.db('settings').update({ vat_rate: 700 });
    const zeitung = await itemId(t.db, 'Zeitung');
    const movements = await t.db('cash_movements').count<{ count: string }[]>('* as count');
    const res = await post('/api/counter/visits', {
      visitId: randomUUID(),
      vendor: 'DEMO-4',
      tillId: till,
      items: [{ itemId: zeitung, quantity: 2 }],
      cash: 300,
      payOut: false,
      expectedCredit: await creditOf('DEMO-4'),
    });
    assert.equal(res.status, 400, JSON.stringify(res.body));
    assert.match(
      JSON.stringify(res.body),
      /7 % VAT, which an Austrian receipt \(RKSV\) has no slot for \(20, 19, 13, 10, 0 %\)/,
    );
    assert.deepEqual(await t.db('cash_movements').count<{ count: string }[]>('* as count'), movements);
    assert.equal(Number((await t.db('counter_visits').count<{ count: string }[]>('* as count'))[0].count), 0);
  });

  it('a new month begins with a month receipt, a new year with the year receipt; the chain goes on through them', async () => {
    const till = await tillId();
    assert.equal((await post('/api/fiscal/retry', {})).status, 200);
    await cashSale(till, 2, 300);
    const { registerId } = await registration(till);
    const month = (await t.db('fiscal_sandbox_rksv_registers').where({ id: registerId }).first('month'))
      .month as string;
    // The register's last receipt was in an earlier month (as on the first day of a month).
    const earlier = month.endsWith('-01')
      ? `${Number(month.slice(0, 4)) - 1}-11`
      : `${month.slice(0, 5)}${String(Number(month.slice(5)) - 1).padStart(2, '0')}`;
    await t.db('fiscal_sandbox_rksv_registers').where({ id: registerId }).update({ month: earlier });
    await cashSale(till, 1, 150);
    // …and in the December of the year before (as on the 1st of January).
    await t
      .db('fiscal_sandbox_rksv_registers')
      .where({ id: registerId })
      .update({ month: `${Number(month.slice(0, 4)) - 1}-12` });
    await cashSale(till, 3, 450);

    const chain = await receipts(till);
    assert.deepEqual(
      chain.map((r) => r.kind),
      ['Startbeleg', 'Nullbeleg', 'Barumsatz', 'Monatsbeleg', 'Barumsatz', 'Jahresbeleg', 'Barumsatz'],
    );
    const { key, till: registered } = await registration(till);
    checkChain(
      chain.map((r) => r.jws),
      key,
      registered,
    );
  });

  it('with SIGN AT unreachable a visit books and its receipt says so; back, it is entered under its own id and the chain goes on without a gap', async () => {
    const till = await tillId();
    assert.equal((await post('/api/fiscal/retry', {})).status, 200);
    const { apiKey } = await simulatorCredentials(t.db);
    const offline = (value: boolean) =>
      realFetch(`${shop.url}/fiscal-sandbox/offline`, {
        method: 'POST',
        headers: { Authorization: `Bearer ${apiKey}`, 'Content-Type': 'application/json' },
        body: JSON.stringify({ offline: value }),
      }).then((res) => assert.equal(res.status, 200));
    await offline(true);
    try {
      const html = await cashSale(till, 2, 300);
      assert.ok(html.includes('Sicherheitseinrichtung ausgefallen'));
      assert.deepEqual(qrTexts(html), []);
      const failures = await get('/api/fiscal/failures');
      assert.match(failures.body.transactions[0].lastError, /fiskaly SIGN AT cannot be reached/);
    } finally {
      await offline(false);
    }
    const retried = await post('/api/fiscal/retry', {});
    assert.deepEqual(retried.body.transactions, []);
    const sale = (await transactions(t.db)).at(-1)!;
    const chain = await receipts(till);
    assert.deepEqual(
      chain.map((r) => r.kind),
      ['Startbeleg', 'Nullbeleg', 'Barumsatz'],
    );
    assert.equal(
      (await t.db('fiscal_rksv_receipts').where({ number: 3, till_id: till }).first('receipt_id')).receipt_id,
      (await t.db('fiscal_transactions').where({ id: sale.id }).first('tx_id')).tx_id,
    );
    const { key, till: registered } = await registration(till);
    checkChain(
      chain.map((r) => r.jws),
      key,
      registered,
    );
  });

  it('a till whose chain another signature service began is not continued under a second Kassen-ID', async () => {
    const id = (await get('/api/tills')).body.tills[0].id as number;
    await t.db('fiscal_rksv_tills').insert({ till_id: id, cash_register_id: 'KASSE-1-0A0B0C', aes_key: 'x' });
    await t.db('fiscal_rksv_receipts').insert({
      till_id: id,
      number: 1,
      kind: 'Startbeleg',
      receipt_date: '2026-01-02',
      turnover: 0,
      jws: 'eyJhbGciOiJFUzI1NiJ9.e30.e30',
    });
    await tillId();
    const failures = (await post('/api/fiscal/retry', {})).body.transactions as { lastError: string }[];
    assert.equal(failures.length, 1);
    assert.match(failures[0].lastError, /KASSE-1-0A0B0C\) was signed by another signature service/);
    assert.equal(await t.db('fiscal_sandbox_rksv_registers').first(), undefined, 'no second register');
  });

  it('both simulators refuse as fiskaly does: no token, a body that is no JSON object or too large, an id that is no UUID, a switch without the API key', async () => {
    const { apiKey, apiSecret } = await simulatorCredentials(t.db);
    const call = async (path: string, init: { method?: string; token?: string; body?: string } = {}) => {
      const res = await realFetch(`${shop.url}/fiscal-sandbox${path}`, {
        method: init.method ?? 'GET',
        headers: {
          'Content-Type': 'application/json',
          ...(init.token ? { Authorization: `Bearer ${init.token}` } : {}),
        },
        body: init.body,
      });
      const body = (await res.json()) as { status_code: number; error: string; code: string; message: string };
      assert.equal(body.status_code, res.status, `${path}: the status in the body`);
      assert.equal(body.error, body.code, `${path}: fiskaly names the code twice`);
      return { status: res.status, code: body.code, message: body.message };
    };
    const credentials = JSON.stringify({ api_key: apiKey, api_secret: apiSecret });
    for (const [api, item, param] of [
      ['/api/v2', '/tss', 'tss'],
      ['/api/rksv/v1', '/cash-register', 'register'],
    ] as const) {
      const token = (
        (await (
          await realFetch(`${shop.url}/fiscal-sandbox${api}/auth`, {
            method: 'POST',
            headers: { 'Content-Type': 'application/json' },
            body: credentials,
          })
        ).json()) as { access_token: string }
      ).access_token;
      assert.ok(token, `${api}: a token for the right key and secret`);
      const id = randomUUID();
      assert.deepEqual(await call(`${api}${item}/${id}`), {
        status: 401,
        code: 'E_UNAUTHORIZED',
        message: 'Missing or invalid token.',
      });
      assert.deepEqual(await call(`${api}${item}/${id}`, { token: apiSecret }), {
        status: 401,
        code: 'E_UNAUTHORIZED',
        message: 'Missing or invalid token.',
      });
      assert.deepEqual(await call(`${api}${item}/Kasse-1`, { token }), {
        status: 400,
        code: 'E_ID',
        message: `${param} must be a UUID.`,
      });
      for (const body of ['[1]', '"text"', '{"api_key":']) {
        assert.deepEqual(await call(`${api}/auth`, { method: 'POST', body }), {
          status: 400,
          code: 'E_JSON',
          message: 'The request body must be a JSON object.',
        });
      }
      assert.deepEqual(
        await call(`${api}/auth`, { method: 'POST', body: JSON.stringify({ pad: 'x'.repeat(70_000) }) }),
        {
          status: 413,
          code: 'E_BODY_TOO_LARGE',
          message: 'The request body is too large.',
        },
      );
      assert.equal((await call(`${api}/auth`, { method: 'POST', body: '{}' })).status, 401);
    }
    for (const [path, body] of [
      ['/offline', { offline: false }],
      ['/rksv/scu', { failing: false }],
    ] as const) {
      for (const token of [undefined, apiSecret]) {
        assert.deepEqual(await call(path, { method: 'POST', token, body: JSON.stringify(body) }), {
          status: 401,
          code: 'E_UNAUTHORIZED',
          message: 'The API key is needed.',
        });
      }
    }
  });
});
