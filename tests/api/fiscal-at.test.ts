import assert from 'node:assert/strict';
import { createHash, createPublicKey, randomUUID, verify, type KeyObject } from 'node:crypto';
import { compactVerify } from 'jose';
import type { Db } from '../../api/src/db/connection.ts';
import { decryptCounter, parseMachineCode, qrOf, receiptTime } from '../../api/src/fiscal/at/rksv.ts';
import type { AtSignature } from '../../api/src/fiscal/port.ts';
import { simulatorCredentials } from '../../api/src/fiscal/sandbox/keys.ts';
import { bookPaidOrder } from '../support/books.ts';
import { describeApi } from '../support/env.ts';
import { itemId } from '../support/orders.ts';
import { listenShop, type ListeningShop } from '../support/shop-server.ts';

// Austria's signing (RKSV) through the real adapter against the local signature device (test mode
// without credentials): a day of the counter becomes a chain of receipts from the start receipt, each
// JWS verified with the device's public key, each chained to the one before, its turnover counter
// decrypted with the till's AES key and equal to the running sum; a new month begins with a month
// receipt; the day's DEP export holds exactly those receipts, and the check finds one planted or lost.

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

const cents = (amount: string) => {
  const [whole, part] = amount.replace('-', '').split(',');
  return (amount.startsWith('-') ? -1 : 1) * (Number(whole) * 100 + Number(part));
};

const firstEight = (text: string) =>
  createHash('sha256').update(text, 'utf8').digest().subarray(0, 8).toString('base64');

/**
 * What the tax office's check does with a till's receipts, in the order of the chain: every JWS holds
 * against the device's key, the numbers follow without a gap from the start receipt, each names the
 * hash of the one before (the first of the Kassen-ID), the counter decrypts to the running sum.
 */
async function assertChainHolds(jwsList: string[], key: KeyObject, till: { id: string; aesKey: Buffer }) {
  let turnover = 0;
  let previous: string | null = null;
  let number = 0;
  for (const jws of jwsList) {
    const { payload, protectedHeader } = await compactVerify(jws, key);
    assert.equal(protectedHeader.alg, 'ES256');
    const code = parseMachineCode(new TextDecoder().decode(payload));
    assert.equal(code.cashRegisterId, till.id);
    number = previous === null ? Number(code.receiptNumber) : number + 1;
    assert.equal(code.receiptNumber, String(number), 'numbered without a gap');
    assert.equal(code.chainValue, firstEight(previous ?? till.id), `chain value of receipt ${number}`);
    turnover += code.amounts.reduce((sum, amount) => sum + cents(amount), 0);
    assert.equal(decryptCounter(till.aesKey, till.id, code.receiptNumber, code.encryptedTurnover), turnover);
    previous = jws;
  }
}

/** The DEP of a till holds exactly these receipts, in order, and their chain holds. */
async function assertDepHolds(dep: Dep, expected: string[], key: KeyObject, till: { id: string; aesKey: Buffer }) {
  assert.equal(dep['Belege-Gruppe'].length, 1, 'one group: one till, one signature device');
  const receipts = dep['Belege-Gruppe'][0]['Belege-kompakt'];
  assert.deepEqual(receipts, expected, 'the DEP holds exactly the receipts');
  await assertChainHolds(receipts, key, till);
}

describeApi('fiscal: signing the till in Austria (RKSV receipt chain against the local signature device)', (t) => {
  let shop: ListeningShop;
  let office = '';
  before(async () => {
    shop = await listenShop(t, (config) => ({ fiscal: { ...config.fiscal, mode: 'off', country: 'AT' } }));
    office = await t.office();
  });
  after(() => shop.close());
  beforeEach(async () => {
    await t.reset();
    // Newspapers sell at Austria's reduced rate of 10 % (§10 (2) UStG 1994).
    await t.db('settings').update({ vat_rate: 1000 });
  });

  const get = (path: string) => shop.http.get(path).set('Authorization', office);
  const post = (path: string, body: object) => shop.http.post(path).set('Authorization', office).send(body);
  const today = () => receiptTime(new Date(), shop.config.timeZone).slice(0, 10);

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

  /** The signature device's public key, as FinanzOnline would hold it, and the till's registration. */
  async function registration(till: number) {
    const unit = await t.db('fiscal_sandbox_scu').first('public_key', 'serial_number');
    const key = createPublicKey({ key: Buffer.from(unit.public_key, 'base64'), format: 'der', type: 'spki' });
    const row = await t.db('fiscal_rksv_tills').where({ till_id: till }).first('cash_register_id', 'aes_key');
    return {
      key,
      serial: unit.serial_number as string,
      till: { id: row.cash_register_id as string, aesKey: Buffer.from(row.aes_key, 'base64') },
    };
  }

  const dep = async (from: string, to = from) => {
    const res = await get(`/api/tills/dep7?from=${from}&to=${to}`);
    assert.equal(res.status, 200, JSON.stringify(res.body));
    return res.body as Dep;
  };

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

  it('a day: start receipt, a visit (copies from credit, cash payout), a cash sale and a close are a chain the DEP holds exactly', async () => {
    const till = await tillId();
    const zeitung = await itemId(t.db, 'Zeitung');
    await bookPaidOrder(t.db, (await t.db('vendors').where({ license_id: 'DEMO-3' }).first('id')).id, new Date(), {
      prints: 10,
      digital: 0,
      tip: 1600,
    });
    const first = await visit({
      vendor: 'DEMO-3',
      tillId: till,
      items: [{ itemId: zeitung, quantity: 10 }],
      payOut: true,
      expectedCredit: await creditOf('DEMO-3'),
    });
    const firstReceipt = await get(`/api/counter/visits/${first.id}/receipt`);
    assert.equal(firstReceipt.status, 200);
    const cashReceipt = await cashSale(till, 4, 600);
    const expected = (await get('/api/tills')).body.tills[0].balance as number;
    const closed = await post(`/api/tills/${till}/closes`, { counted: expected - 20, expected, reason: 'Münze fehlt' });
    assert.equal(closed.status, 201, JSON.stringify(closed.body));
    const report = await get(`/api/closes/${closed.body.id}/report`);
    assert.equal(report.status, 200);
    assert.equal((await post('/api/fiscal/retry', {})).status, 200);

    const all = await transactions(t.db);
    assert.deepEqual(
      all.map((tx) => [tx.business_case, tx.state, tx.country, tx.signature?.kind]),
      [
        ['Anfangsbestand', 'signed', 'AT', 'Startbeleg'],
        ['Umsatz', 'signed', 'AT', 'Barumsatz'],
        ['Auszahlung', 'signed', 'AT', 'Nullbeleg'],
        ['Umsatz', 'signed', 'AT', 'Barumsatz'],
        ['DifferenzSollIst', 'signed', 'AT', 'Nullbeleg'],
      ],
    );
    const signatures = all.map((tx) => tx.signature!);
    const { key, serial, till: registered } = await registration(till);
    assert.ok(signatures.every((s) => s.certificateSerial === serial && s.cashRegisterId === registered.id));

    // The start receipt is a zero receipt chained to the Kassen-ID; the sales carry 10 % (Ermäßigt-1).
    const codes = signatures.map((s) =>
      parseMachineCode(new TextDecoder().decode(Buffer.from(s.jws.split('.')[1], 'base64url'))),
    );
    assert.deepEqual(codes[0].amounts, ['0,00', '0,00', '0,00', '0,00', '0,00']);
    assert.equal(codes[0].chainValue, firstEight(registered.id));
    assert.deepEqual(codes[1].amounts, ['0,00', '15,00', '0,00', '0,00', '0,00']);
    assert.deepEqual(codes[3].amounts, ['0,00', '6,00', '0,00', '0,00', '0,00']);
    assert.equal(codes[1].zda, 'AT0');
    await assertChainHolds(
      signatures.map((s) => s.jws),
      key,
      registered,
    );

    // Each receipt prints its QR code: the code and the signature, which holds on its own.
    assert.deepEqual(qrTexts(firstReceipt.text), [signatures[1].qr, signatures[2].qr]);
    assert.deepEqual(qrTexts(cashReceipt), [signatures[3].qr]);
    assert.deepEqual(qrTexts(report.text), [signatures[4].qr]);
    for (const s of signatures) {
      assert.equal(s.qr, qrOf(s.jws));
      const at = s.qr.lastIndexOf('_');
      const code = s.qr.slice(0, at);
      const input = `${s.jws.split('.')[0]}.${Buffer.from(code, 'utf8').toString('base64url')}`;
      assert.ok(
        verify(
          'sha256',
          Buffer.from(input),
          { key, dsaEncoding: 'ieee-p1363' },
          Buffer.from(s.qr.slice(at + 1), 'base64'),
        ),
      );
    }
    for (const label of ['RKSV', 'Kassen-ID', 'Belegnummer', registered.id])
      assert.ok(firstReceipt.text.includes(label), label);
    assert.ok(!firstReceipt.text.includes('Sicherheitseinrichtung ausgefallen'));

    // The day's DEP holds exactly these receipts; a receipt planted in it or lost from it is found.
    const jws = signatures.map((s) => s.jws);
    const day = await dep(today());
    assert.equal(day['Belege-Gruppe'][0].Signaturzertifikat, '');
    assert.deepEqual(day['Belege-Gruppe'][0].Zertifizierungsstellen, []);
    await assertDepHolds(day, jws, key, registered);
    const planted = structuredClone(day);
    planted['Belege-Gruppe'][0]['Belege-kompakt'].splice(2, 0, jws[1]);
    await assert.rejects(assertDepHolds(planted, jws, key, registered));
    await assert.rejects(assertChainHolds(planted['Belege-Gruppe'][0]['Belege-kompakt'], key, registered));
    const lost = structuredClone(day);
    lost['Belege-Gruppe'][0]['Belege-kompakt'].splice(2, 1);
    await assert.rejects(assertDepHolds(lost, jws, key, registered));
    await assert.rejects(assertChainHolds(lost['Belege-Gruppe'][0]['Belege-kompakt'], key, registered));

    // Another period holds nothing; a period that ends before it starts is refused.
    assert.deepEqual(await dep('2020-01-01'), { 'Belege-Gruppe': [] });
    const wrong = await get('/api/tills/dep7?from=2026-02-02&to=2026-02-01');
    assert.equal(wrong.status, 400);
    assert.equal((await get('/api/tills/dep7?from=today&to=2026-02-01')).status, 400);

    // What the office registers at FinanzOnline: the Kassen-ID, the AES key (once), the device's serial.
    const registered1 = await get(`/api/tills/${till}/rksv`);
    assert.equal(registered1.status, 200, JSON.stringify(registered1.body));
    assert.equal(registered1.body.cashRegisterId, registered.id);
    assert.equal(registered1.body.aesKey, registered.aesKey.toString('base64'));
    assert.equal(registered1.body.certificateSerial, serial);
    assert.equal(registered1.body.startReceipt, signatures[0].qr);
    const registered2 = await get(`/api/tills/${till}/rksv`);
    assert.equal(registered2.body.aesKey, null, 'the key is shown once');
    assert.equal(registered2.body.cashRegisterId, registered.id);
    await shop.http.put(`/api/tills/${till}/fiscal`).set('Authorization', office).send({ mode: 'test', country: 'DE' });
    const german = await get(`/api/tills/${till}/rksv`);
    assert.equal(german.status, 409);
    assert.match(german.body.error ?? german.body.message ?? JSON.stringify(german.body), /RKSV/);

    // A receipt printed again signs nothing again.
    await get(`/api/counter/visits/${first.id}/receipt`);
    assert.equal(
      await t
        .db('fiscal_rksv_receipts')
        .count<{ count: string }[]>('* as count')
        .then((r) => Number(r[0].count)),
      5,
    );
  });

  it('a new month begins with a month receipt, a new year with the year receipt; the chain goes on through them', async () => {
    const till = await tillId();
    assert.equal((await post('/api/fiscal/retry', {})).status, 200);
    await cashSale(till, 2, 300);
    // The till's last receipt was in an earlier month (as on the first day of a month).
    const month = today().slice(0, 7);
    const earlier = month.endsWith('-01')
      ? `${Number(month.slice(0, 4)) - 1}-11`
      : `${month.slice(0, 5)}${String(Number(month.slice(5)) - 1).padStart(2, '0')}`;
    await t.db('fiscal_rksv_tills').where({ till_id: till }).update({ month: earlier });
    await cashSale(till, 1, 150);
    // …and in the December of the year before (as on the 1st of January).
    await t
      .db('fiscal_rksv_tills')
      .where({ till_id: till })
      .update({ month: `${Number(month.slice(0, 4)) - 1}-12` });
    await cashSale(till, 3, 450);

    const receipts = await t
      .db('fiscal_rksv_receipts')
      .where({ till_id: till })
      .orderBy('number')
      .select('kind', 'jws', 'turnover');
    assert.deepEqual(
      receipts.map((r: { kind: string }) => r.kind),
      ['Startbeleg', 'Barumsatz', 'Monatsbeleg', 'Barumsatz', 'Jahresbeleg', 'Barumsatz'],
    );
    // The month receipt keeps the counter where the month ended.
    assert.equal(Number(receipts[2].turnover), 300);
    const { key, till: registered } = await registration(till);
    await assertDepHolds(
      await dep(today()),
      receipts.map((r: { jws: string }) => r.jws),
      key,
      registered,
    );
  });

  it('with the signature device unreachable a visit books, its receipt says so; back, the chain goes on without a gap', async () => {
    const till = await tillId();
    assert.equal((await post('/api/fiscal/retry', {})).status, 200);
    const { apiKey } = await simulatorCredentials(t.db);
    const offline = (value: boolean) =>
      fetch(`${shop.url}/fiscal-sandbox/offline`, {
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
      assert.match(failures.body.transactions[0].lastError, /signature device cannot be reached/);
    } finally {
      await offline(false);
    }
    const retried = await post('/api/fiscal/retry', {});
    assert.deepEqual(retried.body.transactions, []);
    const { key, till: registered } = await registration(till);
    const receipts = await t
      .db('fiscal_rksv_receipts')
      .where({ till_id: till })
      .orderBy('number')
      .select('kind', 'jws');
    assert.deepEqual(
      receipts.map((r: { kind: string }) => r.kind),
      ['Startbeleg', 'Barumsatz'],
    );
    await assertDepHolds(
      await dep(today()),
      receipts.map((r: { jws: string }) => r.jws),
      key,
      registered,
    );
  });
});
