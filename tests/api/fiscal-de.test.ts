import assert from 'node:assert/strict';
import { randomUUID, verify } from 'node:crypto';
import type { Db } from '../../api/src/db/connection.ts';
import { parseQrCode, qrSignedPart } from '../../api/src/fiscal/de/standard-v1.ts';
import type { DeSignature } from '../../api/src/fiscal/port.ts';
import { simulatorCredentials } from '../../api/src/fiscal/sandbox/keys.ts';
import { publicKeyOf, startSignedText } from '../../api/src/fiscal/sandbox/tss.ts';
import { bookPaidOrder } from '../support/books.ts';
import { describeApi } from '../support/env.ts';
import { itemId, vendorId } from '../support/orders.ts';
import { listenShop, type ListeningShop } from '../support/shop-server.ts';

// Germany's signing through the real fiskaly adapter against the local TSE simulator (test mode
// without credentials): the counter's bookings become signed transactions, every signature holds
// against the simulator's public key, the counters rise without gaps, and the receipts carry the
// DSFinV-K QR code. With the simulator stopped, the counter goes on and nothing is signed twice.

interface Tx {
  id: number;
  source: string;
  business_case: string;
  state: string;
  attempts: number;
  tx_id: string;
  signature: DeSignature | null;
}

const transactions = async (db: Db) => (await db('fiscal_transactions').orderBy('id').select('*')) as Tx[];

/** The QR codes' texts in a receipt's HTML: the pictures' alt texts. */
const qrTexts = (html: string) =>
  [...html.matchAll(/<img class="tse-qr"[^>]*alt="([^"]*)"/g)].map((m) => m[1].replace(/&amp;/g, '&'));

const iso = (at: string) => new Date(at).toISOString();

/** Every signature of a transaction checked with the TSS's public key, as a tax auditor would. */
function assertSignatureHolds(sig: DeSignature): void {
  const key = publicKeyOf(sig.publicKey);
  const finish = qrSignedPart({ ...sig, start: iso(sig.start), end: iso(sig.end) });
  assert.ok(
    verify('sha384', Buffer.from(finish), { key, dsaEncoding: 'ieee-p1363' }, Buffer.from(sig.signature, 'base64')),
    `finish signature of transaction ${sig.transactionNumber}`,
  );
  if (sig.startSignature) {
    const start = startSignedText({
      clientSerial: sig.clientSerial,
      transactionNumber: sig.transactionNumber,
      signatureCounter: sig.startSignatureCounter!,
      start: iso(sig.start),
    });
    assert.ok(
      verify(
        'sha384',
        Buffer.from(start),
        { key, dsaEncoding: 'ieee-p1363' },
        Buffer.from(sig.startSignature, 'base64'),
      ),
      `start signature of transaction ${sig.transactionNumber}`,
    );
  }
}

describeApi('fiscal: signing the till in Germany (fiskaly SIGN DE v2 against the local TSE simulator)', (t) => {
  let shop: ListeningShop;
  let office = '';
  before(async () => {
    // The installation signs nothing (FISCAL_MODE off, the default); staff switch the till to test mode.
    shop = await listenShop(t, (config) => ({ fiscal: { ...config.fiscal, mode: 'off', country: 'DE' } }));
    office = await t.office();
  });
  after(() => shop.close());
  beforeEach(() => t.reset());

  const get = (path: string) => shop.http.get(path).set('Authorization', office);
  const post = (path: string, body: object) => shop.http.post(path).set('Authorization', office).send(body);

  /** The first till, switched to test mode in the back office. */
  async function tillId(): Promise<number> {
    const id = (await get('/api/tills')).body.tills[0].id as number;
    const res = await shop.http
      .put(`/api/tills/${id}/fiscal`)
      .set('Authorization', office)
      .send({ mode: 'test', country: 'DE' });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.equal(res.body.effectiveMode, 'test');
    assert.equal(res.body.simulator, true);
    return id;
  }

  async function giveCredit(licenseId: string): Promise<number> {
    await bookPaidOrder(t.db, await vendorId(t.db, licenseId), new Date(), { prints: 10, digital: 0, tip: 1600 });
    return (await get('/api/counter/vendor').query({ vendor: licenseId })).body.credit as number;
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

  async function setOffline(offline: boolean) {
    const { apiKey } = await simulatorCredentials(t.db);
    const res = await fetch(`${shop.url}/fiscal-sandbox/offline`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${apiKey}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({ offline }),
    });
    assert.equal(res.status, 200, await res.text());
  }

  it('a visit (copies from credit, cash payout), a cash sale and a daily close are signed; signatures, counters and QR codes hold', async () => {
    const till = await tillId();
    const zeitung = await itemId(t.db, 'Zeitung');
    const credit = await giveCredit('DEMO-3');
    assert.ok(credit > 1500, `credit ${credit}`);
    const first = await visit({
      vendor: 'DEMO-3',
      tillId: till,
      items: [{ itemId: zeitung, quantity: 10 }],
      payOut: true,
      expectedCredit: credit,
    });
    const firstReceipt = await get(`/api/counter/visits/${first.id}/receipt`);
    assert.equal(firstReceipt.status, 200);

    // DEMO-4 has no credit: 4 copies paid in cash
    const cashSale = await visit({
      vendor: 'DEMO-4',
      tillId: till,
      items: [{ itemId: zeitung, quantity: 4 }],
      cash: 600,
      expectedCredit: (await get('/api/counter/vendor').query({ vendor: 'DEMO-4' })).body.credit,
    });
    const cashReceipt = await get(`/api/counter/visits/${cashSale.id}/receipt`);
    assert.equal(cashReceipt.status, 200);

    const expected = (await get('/api/tills')).body.tills[0].balance as number;
    const closed = await post(`/api/tills/${till}/closes`, { counted: expected - 20, expected, reason: 'Münze fehlt' });
    assert.equal(closed.status, 201, JSON.stringify(closed.body));
    const report = await get(`/api/closes/${closed.body.id}/report`);
    assert.equal(report.status, 200);
    // what no receipt printed (the opening balance) the periodic run signs
    assert.equal((await post('/api/fiscal/retry', {})).status, 200);

    const all = await transactions(t.db);
    assert.deepEqual(
      all.map((tx) => [tx.business_case, tx.state]),
      [
        ['Anfangsbestand', 'signed'],
        ['Umsatz', 'signed'],
        ['Auszahlung', 'signed'],
        ['Umsatz', 'signed'],
        ['DifferenzSollIst', 'signed'],
      ],
    );
    const signatures = all.map((tx) => tx.signature!);
    for (const sig of signatures) assertSignatureHolds(sig);
    // The simulator's public key, read from its TSS as a verifier would, is the one every signature names.
    const { tssId } = await simulatorCredentials(t.db);
    const tss = await t.db('fiscal_sandbox_tss').where({ id: tssId }).first('public_key', 'serial_number');
    assert.ok(signatures.every((s) => s.publicKey === tss.public_key && s.tssSerial === tss.serial_number));

    // Start and finish of each transaction take one signature counter each, in order, without a gap.
    const counters = signatures.flatMap((s) => [s.startSignatureCounter!, s.signatureCounter]);
    assert.deepEqual(
      counters,
      counters.map((_, n) => counters[0] + n),
    );
    assert.deepEqual(
      signatures.map((s) => s.transactionNumber),
      signatures.map((_, n) => signatures[0].transactionNumber + n),
    );

    // The visit's sale: copies from the credit (Unbar) at 7 %; its payout in cash (Bar).
    assert.equal(signatures[1].processData, 'Beleg^0.00_15.00_0.00_0.00_0.00^15.00:Unbar');
    assert.equal(signatures[3].processData, 'Beleg^0.00_6.00_0.00_0.00_0.00^6.00:Bar');
    assert.equal(signatures[4].processData, 'AVTransfer^0.00_0.00_0.00_0.00_-0.20^-0.20:Bar');
    assert.match(signatures[2].processData, /^AVTransfer\^0\.00_0\.00_0\.00_0\.00_-\d+\.\d\d\^-\d+\.\d\d:Bar$/);

    // Each receipt carries the QR code of its transactions, decoded into the DSFinV-K's fields.
    const firstQrs = qrTexts(firstReceipt.text);
    assert.deepEqual(firstQrs, [signatures[1].qr, signatures[2].qr]);
    assert.deepEqual(qrTexts(cashReceipt.text), [signatures[3].qr]);
    assert.deepEqual(qrTexts(report.text), [signatures[4].qr]);
    const qr = parseQrCode(firstQrs[0]);
    assert.equal(qr.version, 'V0');
    assert.equal(qr.clientSerial, signatures[1].clientSerial);
    assert.equal(qr.processType, 'Kassenbeleg-V1');
    assert.equal(qr.processData, 'Beleg^0.00_15.00_0.00_0.00_0.00^15.00:Unbar');
    assert.equal(qr.transactionNumber, signatures[1].transactionNumber);
    assert.equal(qr.signatureCounter, signatures[1].signatureCounter);
    assert.equal(qr.algorithm, 'ecdsa-plain-SHA384');
    assert.equal(qr.timeFormat, 'unixTime');
    assert.equal(qr.start, signatures[1].start);
    assert.equal(qr.end, signatures[1].end);
    assert.equal(qr.publicKey, tss.public_key);
    assertSignatureHolds({ ...signatures[1], ...qr, startSignature: null });
    for (const label of [
      'TSE-Seriennummer',
      'TSE-Transaktion',
      'Signaturzähler',
      'TSE-Start',
      'TSE-Stop',
      'TSE-Signatur',
    ])
      assert.ok(firstReceipt.text.includes(label), label);
    assert.ok(firstReceipt.text.includes(tss.serial_number));
    assert.ok(!firstReceipt.text.includes('TSE ausgefallen'));

    // A receipt printed again signs nothing again.
    await get(`/api/counter/visits/${first.id}/receipt`);
    const again = await transactions(t.db);
    assert.deepEqual(
      again.map((tx) => tx.signature!.signatureCounter),
      signatures.map((s) => s.signatureCounter),
    );

    // What the ELSTER notice asks of the till: the serial numbers of its newest signature.
    const overview = (await get('/api/fiscal')).body as {
      tills: { tssSerial: string | null; clientSerial: string | null; signingSince: string | null }[];
      installation: { software: { name: string; version: string } };
    };
    assert.equal(overview.tills[0].tssSerial, tss.serial_number);
    assert.equal(overview.tills[0].clientSerial, signatures[4].clientSerial);
    assert.ok(overview.tills[0].signingSince);
    assert.equal(overview.installation.software.name, 'street-paper-shop');
  });

  it('with the simulator stopped a visit still books, its receipt says the TSE failed, staff see it; back, nothing is signed twice', async () => {
    const till = await tillId();
    const zeitung = await itemId(t.db, 'Zeitung');
    // the till's opening is signed while the simulator runs
    assert.equal((await post('/api/fiscal/retry', {})).status, 200);
    const credit = await giveCredit('DEMO-3');
    await setOffline(true);
    try {
      const done = await visit({
        vendor: 'DEMO-3',
        tillId: till,
        items: [{ itemId: zeitung, quantity: 2 }],
        payOut: true,
        expectedCredit: credit,
      });
      assert.equal((await get('/api/counter/vendor').query({ vendor: 'DEMO-3' })).body.credit, 0, 'booked');
      const receipt = await get(`/api/counter/visits/${done.id}/receipt`);
      assert.equal(receipt.status, 200);
      assert.ok(receipt.text.includes('TSE ausgefallen'), 'the receipt says the TSE failed');
      assert.deepEqual(qrTexts(receipt.text), []);
      const english = await get(`/api/counter/visits/${done.id}/receipt?lang=en`);
      assert.ok(english.text.includes('TSE unavailable'));

      const failures = await get('/api/fiscal/failures');
      assert.equal(failures.status, 200);
      assert.deepEqual(
        failures.body.transactions.map((tx: { businessCase: string; state: string }) => [tx.businessCase, tx.state]),
        [
          ['Umsatz', 'failed'],
          ['Auszahlung', 'failed'],
        ],
      );
      assert.match(failures.body.transactions[0].lastError, /cannot be reached/);
      // the periodic run, still without the TSE, changes nothing but the attempts
      await post('/api/fiscal/retry', {});
    } finally {
      await setOffline(false);
    }
    // A receipt's transaction may have been started before the outage and not finished: simulate one
    // that reached the TSE and whose answer was lost, by signing it behind the module's back first.
    const retried = await post('/api/fiscal/retry', {});
    assert.equal(retried.status, 200);
    assert.deepEqual(retried.body.transactions, []);
    const all = await transactions(t.db);
    assert.ok(all.every((tx) => tx.state === 'signed'));
    assert.ok(all.filter((tx) => tx.business_case !== 'Anfangsbestand').every((tx) => tx.attempts >= 2));
    for (const tx of all) assertSignatureHolds(tx.signature!);
    // The simulator holds one transaction per fiscal transaction, each finished once: signed once.
    const { tssId } = await simulatorCredentials(t.db);
    const atTse = await t.db('fiscal_sandbox_transactions').where({ tss_id: tssId }).select('id', 'revision', 'state');
    assert.equal(atTse.length, all.length);
    assert.ok(atTse.every((tx: { revision: number; state: string }) => tx.revision === 2 && tx.state === 'FINISHED'));
    const counters = all.flatMap((tx) => [tx.signature!.startSignatureCounter, tx.signature!.signatureCounter]);
    assert.deepEqual(
      counters,
      counters.map((_, n) => counters[0]! + n),
    );
    assert.equal((await get('/api/fiscal/failures')).body.transactions.length, 0);
  });
});
