import assert from 'node:assert/strict';
import { createHash, createPublicKey, randomUUID, verify } from 'node:crypto';
import type { Db } from '../../api/src/db/connection.ts';
import { sealingKey } from '../../api/src/fiscal/de/secrets.ts';
import { unseal } from '../../api/src/foundations/sealing.ts';
import { parseQrCode } from '../../api/src/fiscal/de/standard-v1.ts';
import { tillSerial, uuidFrom } from '../../api/src/fiscal/ids.ts';
import type { DeSignature } from '../../api/src/fiscal/port.ts';
import { simulatorCredentials } from '../../api/src/fiscal/sandbox/keys.ts';
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

// The verifier a tax auditor runs, written here on purpose (not the product's encoder): it rebuilds
// the TSE's transaction log message (BSI TR-03151: the DER elements from version to logTime, one after
// the other) from nothing but a receipt's QR code (DSFinV-K: V0;client;processType;processData;
// transaction;counter;start;logTime;algorithm;timeFormat;signature;publicKey) and checks the
// signature with node:crypto against the QR code's public key.

/** One DER element (X.690): tag, length, content. */
const tlv = (tag: number, content: Buffer) => {
  const n = content.length;
  const length = n < 0x80 ? [n] : n < 0x100 ? [0x81, n] : [0x82, n >> 8, n & 0xff];
  return Buffer.concat([Buffer.from([tag, ...length]), content]);
};
/** A non-negative INTEGER's content: big-endian, shortest, a leading zero where the top bit is set. */
const uint = (value: number) => {
  const bytes: number[] = [];
  for (let v = value; v > 0; v = Math.floor(v / 256)) bytes.unshift(v % 256);
  if (bytes.length === 0 || bytes[0] >= 0x80) bytes.unshift(0);
  return Buffer.from(bytes);
};
/** An OBJECT IDENTIFIER's content from its dotted form. */
const oid = (dotted: string) => {
  const [first, second, ...arcs] = dotted.split('.').map(Number);
  const bytes = [first * 40 + second];
  for (const arc of arcs) {
    const base128 = [arc & 0x7f];
    for (let v = Math.floor(arc / 128); v > 0; v = Math.floor(v / 128)) base128.unshift(0x80 | (v & 0x7f));
    bytes.push(...base128);
  }
  return Buffer.from(bytes);
};

interface LogFields {
  operationType: string;
  clientId: string;
  processData: string;
  processType: string;
  transactionNumber: number;
  signatureCounter: number;
  /** ISO 8601, as the QR code gives it; the log message holds it as unixTime. */
  logTime: string;
  publicKey: string;
}

/** TR-03151's transaction log message without its signature, as a TSE signs it. */
function transactionLog(f: LogFields): Buffer {
  const ms = Date.parse(f.logTime);
  assert.ok(Number.isFinite(ms), `log time ${f.logTime}`);
  // TR-03153: the TSE's serial number is the SHA-256 of its public key
  const serial = createHash('sha256').update(Buffer.from(f.publicKey, 'base64')).digest();
  return Buffer.concat([
    tlv(0x02, uint(2)), // version
    tlv(0x06, oid('0.4.0.127.0.7.3.7.1.1')), // certifiedDataType: id-SE-API-transaction-log
    tlv(0x80, Buffer.from(f.operationType)),
    tlv(0x81, Buffer.from(f.clientId)),
    tlv(0x82, Buffer.from(f.processData)),
    tlv(0x83, Buffer.from(f.processType)),
    tlv(0x85, uint(f.transactionNumber)),
    tlv(0x04, serial),
    tlv(0x30, tlv(0x06, oid('0.4.0.127.0.7.1.1.4.1.4'))), // signatureAlgorithm: ecdsa-plain-SHA384
    tlv(0x02, uint(f.signatureCounter)),
    tlv(0x02, uint(Math.floor(ms / 1000))), // logTime as unixTime
  ]);
}

/** The uncompressed P-384 point of the QR code as a node:crypto key. */
function verifierKey(base64Point: string) {
  const point = Buffer.from(base64Point, 'base64');
  assert.equal(point.length, 97, 'an uncompressed P-384 point');
  assert.equal(point[0], 4, 'an uncompressed P-384 point');
  const coordinate = (from: number) => point.subarray(from, from + 48).toString('base64url');
  return createPublicKey({ key: { kty: 'EC', crv: 'P-384', x: coordinate(1), y: coordinate(49) }, format: 'jwk' });
}

/** An ecdsa-plain-SHA384 signature (r||s) over the log message, checked with the public key. */
function logSignatureHolds(fields: LogFields, signature: string): boolean {
  const value = Buffer.from(signature, 'base64');
  assert.equal(value.length, 96, 'r||s on P-384');
  return verify(
    'sha384',
    transactionLog(fields),
    { key: verifierKey(fields.publicKey), dsaEncoding: 'ieee-p1363' },
    value,
  );
}

/** A receipt's QR code verified from its text alone. */
function qrHolds(text: string): boolean {
  const fields = text.split(';');
  assert.equal(fields.length, 12, text);
  const [version, clientId, processType, processData, number, counter, , logTime, algorithm, format, signature, key] =
    fields as [string, string, string, string, string, string, string, string, string, string, string, string];
  assert.equal(version, 'V0');
  assert.equal(algorithm, 'ecdsa-plain-SHA384');
  assert.equal(format, 'unixTime');
  return logSignatureHolds(
    {
      operationType: 'FinishTransaction',
      clientId,
      processData,
      processType,
      transactionNumber: Number(number),
      signatureCounter: Number(counter),
      logTime,
      publicKey: key,
    },
    signature,
  );
}

/** Both signatures of a transaction: the finish through its QR code, the start through its log message. */
function assertSignatureHolds(sig: DeSignature): void {
  assert.ok(qrHolds(sig.qr), `finish signature of transaction ${sig.transactionNumber}`);
  assert.ok(sig.startSignature, `start signature of transaction ${sig.transactionNumber}`);
  assert.ok(
    logSignatureHolds(
      {
        operationType: 'StartTransaction',
        clientId: sig.clientSerial,
        processData: '',
        processType: '',
        transactionNumber: sig.transactionNumber,
        signatureCounter: sig.startSignatureCounter!,
        logTime: new Date(sig.start).toISOString(),
        publicKey: sig.publicKey,
      },
      sig.startSignature,
    ),
    `start signature of transaction ${sig.transactionNumber}`,
  );
}

/** FISCAL_SECRET_KEY of these tests: the admin PUK and PIN are sealed with it. */
const secretKey = 'a-secret-of-the-configuration-not-the-database';

describeApi('fiscal: signing the till in Germany (fiskaly SIGN DE v2 against the local TSE simulator)', (t) => {
  let shop: ListeningShop;
  let office = '';
  before(async () => {
    // The installation signs nothing (FISCAL_MODE off, the default); staff switch the till to test mode.
    // Set-up calls may take 30 s at fiskaly; here a lost answer is given up on sooner.
    shop = await listenShop(t, (config) => ({
      fiscal: { ...config.fiscal, mode: 'off', country: 'DE', setupTimeoutMs: 1500, secretKey },
    }));
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

  /** Tells the simulator to answer the next calls of a kind with a fault. */
  async function fault(body: object) {
    const { apiKey } = await simulatorCredentials(t.db);
    const res = await fetch(`${shop.url}/fiscal-sandbox/faults`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${apiKey}`, 'Content-Type': 'application/json' },
      body: JSON.stringify(body),
    });
    assert.equal(res.status, 201, await res.text());
  }

  it('a visit (copies from credit, cash payout), a cash sale and a daily close are signed; every QR code of the day verifies against the TR-03151 log message rebuilt from it, counters rise without gaps', async () => {
    const till = await tillId();
    // the till's opening balance is signed when signing begins, before the first visit starts its transaction
    assert.equal((await post('/api/fiscal/retry', {})).status, 200);
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

    // Every QR code of the day (the opening balance's has no receipt) holds from its text alone, as
    // an independent verifier checks it; a QR code with one field changed does not.
    const dayQrs = signatures.map((s) => s.qr);
    assert.deepEqual([...firstQrs, ...qrTexts(cashReceipt.text), ...qrTexts(report.text)], dayQrs.slice(1));
    for (const text of dayQrs) assert.ok(qrHolds(text), text);
    assert.ok(!qrHolds(firstQrs[0].replace(':Unbar;', ':Bar;')), 'a changed payment type fails');
    const fields = firstQrs[0].split(';');
    fields[5] = String(Number(fields[5]) + 1);
    assert.ok(!qrHolds(fields.join(';')), 'a changed signature counter fails');
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

  it('set-up resumes after the answer to PUT /tss was lost: the TSS without its PUK is abandoned, a new one ends INITIALIZED, its PUK and PIN stored sealed with the configured key', async () => {
    const till = await tillId();
    // fiskaly creates the TSS, but its answer (with the admin PUK, given only there) never arrives
    await fault({ method: 'PUT', resource: 'tss', kind: 'timeout', times: 1 });
    const first = await post('/api/fiscal/retry', {});
    assert.equal(first.status, 200);
    assert.deepEqual(
      first.body.transactions.map((tx: { businessCase: string; state: string }) => [tx.businessCase, tx.state]),
      [['Anfangsbestand', 'failed']],
    );
    assert.match(first.body.transactions[0].lastError, /cannot be reached \(PUT \/tss\//);
    const lost = (await t.db('fiscal_tss').select('*')) as { id: string; state: string; admin_puk: string | null }[];
    assert.deepEqual(
      lost.map((row) => [row.state, row.admin_puk]),
      [['NEW', null]],
    );
    const atSimulator = await t.db('fiscal_sandbox_tss').where({ id: lost[0].id }).first('state');
    assert.equal(atSimulator.state, 'CREATED', 'the simulator created it all the same');

    // The next run resumes: the CREATED TSS cannot be initialised without its PUK, so it is recorded
    // as abandoned and a new TSS is set up to INITIALIZED.
    const second = await post('/api/fiscal/retry', {});
    assert.deepEqual(second.body.transactions, []);
    const rows = (await t.db('fiscal_tss').orderBy('created_at').select('*')) as {
      id: string;
      state: string;
      admin_puk: string | null;
      admin_pin: string | null;
      note: string;
    }[];
    assert.deepEqual(
      rows.map((row) => row.state),
      ['ABANDONED', 'INITIALIZED'],
    );
    assert.equal(rows[0].id, lost[0].id);
    assert.match(rows[0].note, /admin PUK never arrived/);
    const tss = rows[1];
    const simulated = await t.db('fiscal_sandbox_tss').where({ id: tss.id }).first('state', 'admin_puk', 'admin_pin');
    assert.equal(simulated.state, 'INITIALIZED');
    // Stored, but not as they are: the raw columns hold neither the PUK nor the PIN ...
    assert.ok(tss.admin_puk && tss.admin_pin);
    for (const column of [tss.admin_puk, tss.admin_pin]) {
      assert.ok(!column.includes(simulated.admin_puk), 'the PUK is not in the database as it is');
      assert.ok(!column.includes(simulated.admin_pin), 'the PIN is not in the database as it is');
    }
    const dump = JSON.stringify(await t.db('fiscal_tss').select('*'));
    assert.ok(!dump.includes(simulated.admin_puk) && !dump.includes(simulated.admin_pin));
    // ... and the configured key opens them, another key does not.
    const key = sealingKey(secretKey);
    assert.equal(unseal(key, tss.admin_puk, `${tss.id}:admin_puk`), simulated.admin_puk);
    assert.equal(unseal(key, tss.admin_pin, `${tss.id}:admin_pin`), simulated.admin_pin);
    assert.equal(unseal(sealingKey('another secret'), tss.admin_puk, `${tss.id}:admin_puk`), undefined);

    // The till signs at the new TSS with a client of its own, registered with the till's serial.
    const [opening] = await transactions(t.db);
    assert.equal(opening.state, 'signed');
    assert.equal(opening.signature!.tssId, tss.id);
    const clients = await t.db('fiscal_clients').select('tss_id', 'till_id', 'id', 'serial_number', 'state');
    assert.deepEqual(clients, [
      {
        tss_id: tss.id,
        till_id: till,
        id: opening.signature!.clientId,
        serial_number: tillSerial(till),
        state: 'REGISTERED',
      },
    ]);
    assert.equal(opening.signature!.clientSerial, tillSerial(till));
    assertSignatureHolds(opening.signature!);
  });

  it('set-up resumes from UNINITIALIZED when setting the admin PIN failed: the same TSS, its stored PUK used again', async () => {
    await tillId();
    // every try of PATCH /tss/{id}/admin (and its two retries) answered 503
    await fault({ method: 'PATCH', resource: 'admin', kind: 'status', status: 503, times: 3 });
    const first = await post('/api/fiscal/retry', {});
    assert.match(first.body.transactions[0].lastError, /HTTP 503/);
    const [before]: { id: string; state: string; admin_puk: string }[] = await t.db('fiscal_tss').select('*');
    assert.equal(before.state, 'UNINITIALIZED');
    assert.ok(before.admin_puk);
    assert.deepEqual((await post('/api/fiscal/retry', {})).body.transactions, []);
    const after: { id: string; state: string }[] = await t.db('fiscal_tss').select('id', 'state');
    assert.deepEqual(after, [{ id: before.id, state: 'INITIALIZED' }]);
  });

  it('a second till gets a client of its own with its own serial number; a deregistered client signs nothing and the till gets a new one', async () => {
    const first = await tillId();
    const created = await post('/api/tills', { name: 'Kasse 2', openingBalance: 1000 });
    assert.equal(created.status, 201, JSON.stringify(created.body));
    const second = created.body.id as number;
    assert.equal(
      (
        await shop.http
          .put(`/api/tills/${second}/fiscal`)
          .set('Authorization', office)
          .send({ mode: 'test', country: 'DE' })
      ).status,
      200,
    );
    assert.deepEqual((await post('/api/fiscal/retry', {})).body.transactions, []);
    const signed = await transactions(t.db);
    const byTill = new Map(
      (await t.db('fiscal_transactions').select('till_id', 'signature')).map(
        (row: { till_id: number; signature: DeSignature }) => [row.till_id, row.signature],
      ),
    );
    assert.equal(signed.length, 2);
    assert.notEqual(byTill.get(first)!.clientId, byTill.get(second)!.clientId);
    assert.equal(byTill.get(first)!.clientSerial, tillSerial(first));
    assert.equal(byTill.get(second)!.clientSerial, tillSerial(second));
    assert.equal(parseQrCode(byTill.get(second)!.qr).clientSerial, tillSerial(second));

    const deregistered = await post(`/api/fiscal/tills/${second}/deregister`, {});
    assert.equal(deregistered.status, 200, JSON.stringify(deregistered.body));
    assert.equal(deregistered.body.clientId, byTill.get(second)!.clientId);
    const atSimulator = await t
      .db('fiscal_sandbox_clients')
      .where({ id: byTill.get(second)!.clientId })
      .first('state');
    assert.equal(atSimulator.state, 'DEREGISTERED');
    // the till's next movement is signed with a new client (the same serial: the same till)
    assert.equal(
      (await post(`/api/tills/${second}/movements`, { kind: 'income', amount: 100, reason: 'Spende' })).status,
      201,
    );
    assert.deepEqual((await post('/api/fiscal/retry', {})).body.transactions, []);
    const last = (await transactions(t.db)).at(-1)!;
    assert.notEqual(last.signature!.clientId, byTill.get(second)!.clientId);
    assert.equal(last.signature!.clientSerial, tillSerial(second));
  });

  it('a VAT rate without a slot in a German TSE is refused before any transaction starts', async () => {
    const till = await tillId();
    const zeitung = await itemId(t.db, 'Zeitung');
    await t.db('items').where({ id: zeitung }).update({ vat_rate: 1600 });
    const visitId = randomUUID();
    const refused = await post('/api/counter/visits', {
      visitId,
      vendor: 'DEMO-4',
      tillId: till,
      items: [{ itemId: zeitung, quantity: 2 }],
      cash: 300,
      payOut: false,
      expectedCredit: (await get('/api/counter/vendor').query({ vendor: 'DEMO-4' })).body.credit,
    });
    assert.equal(refused.status, 400, JSON.stringify(refused.body));
    assert.match(JSON.stringify(refused.body), /16 %/);
    const german = await post('/api/counter/visits', {
      visitId,
      vendor: 'DEMO-4',
      tillId: till,
      items: [{ itemId: zeitung, quantity: 2 }],
      cash: 300,
      payOut: false,
      expectedCredit: 0,
    }).set('Accept-Language', 'de');
    assert.match(JSON.stringify(german.body), /keinen Platz/);
    assert.equal(await t.db('counter_visits').where({ id: visitId }).first(), undefined, 'nothing booked');
    assert.equal(
      (await t.db('fiscal_sandbox_transactions').count<{ count: string }[]>('* as count'))[0].count,
      0,
      'the simulator saw no transaction',
    );
  });

  it('a visit whose booking fails cancels the transaction it started (the simulator shows it CANCELLED)', async () => {
    const till = await tillId();
    assert.equal((await post('/api/fiscal/retry', {})).status, 200);
    const zeitung = await itemId(t.db, 'Zeitung');
    const credit = await giveCredit('DEMO-3');
    const visitId = randomUUID();
    // the credit the counter saw is stale: the booking is refused
    const refused = await post('/api/counter/visits', {
      visitId,
      vendor: 'DEMO-3',
      tillId: till,
      items: [{ itemId: zeitung, quantity: 2 }],
      cash: 0,
      payOut: false,
      expectedCredit: credit + 100,
    });
    assert.equal(refused.status, 409, JSON.stringify(refused.body));
    const txId = uuidFrom(`test:visit:${visitId}`);
    const atTse = await t.db('fiscal_sandbox_transactions').where({ id: txId }).first('state', 'revision', 'body');
    assert.ok(atTse, 'the transaction was started before the booking');
    assert.equal(atTse.state, 'CANCELLED');
    assert.equal(atTse.revision, 2);
    assert.match(JSON.stringify(atTse.body), /AVBelegabbruch|ABORT/);
    // Recorded as the TSE signed it: an aborted Bon (AVBelegabbruch), its signature holding.
    const abort = (await transactions(t.db)).find((tx) => tx.source === `abort:${visitId}:1`)!;
    assert.equal(abort.state, 'signed');
    assert.equal(abort.tx_id, txId);
    assert.equal(abort.signature!.processData, 'AVBelegabbruch^0.00_3.00_0.00_0.00_0.00^');
    assertSignatureHolds(abort.signature!);

    // The same visit booked with the credit as it is: a cancelled transaction can never be
    // finished, so the sale starts and signs a transaction of its own.
    const booked = await post('/api/counter/visits', {
      visitId,
      vendor: 'DEMO-3',
      tillId: till,
      items: [{ itemId: zeitung, quantity: 2 }],
      cash: 0,
      payOut: false,
      expectedCredit: credit,
    });
    assert.equal(booked.status, 201, JSON.stringify(booked.body));
    const receipt = await get(`/api/counter/visits/${visitId}/receipt`);
    assert.equal(qrTexts(receipt.text).length, 1);
    const sale = (await transactions(t.db)).find((tx) => tx.source === `visit:${visitId}`)!;
    assert.equal(sale.state, 'signed');
    assert.notEqual(sale.tx_id, txId);
    assertSignatureHolds(sale.signature!);
    assert.equal(
      (await t.db('fiscal_sandbox_transactions').where({ id: sale.tx_id }).first('state')).state,
      'FINISHED',
    );
  });

  it('the TSE answering 429 once is asked again and signs; answering 500 leaves the sale booked, its receipt saying the TSE failed, never a 500 at the counter', async () => {
    const till = await tillId();
    assert.equal((await post('/api/fiscal/retry', {})).status, 200);
    const zeitung = await itemId(t.db, 'Zeitung');
    await fault({ method: 'PUT', resource: 'tx', kind: 'status', status: 429, times: 1 });
    const first = await visit({
      vendor: 'DEMO-4',
      tillId: till,
      items: [{ itemId: zeitung, quantity: 1 }],
      cash: 150,
      expectedCredit: 0,
    });
    const firstReceipt = await get(`/api/counter/visits/${first.id}/receipt`);
    assert.equal(firstReceipt.status, 200);
    assert.equal(qrTexts(firstReceipt.text).length, 1, 'signed after the 429');
    assert.equal(
      (await t.db('fiscal_sandbox_faults').sum<{ sum: string }[]>('remaining as sum'))[0].sum,
      0,
      'the 429 was answered',
    );

    await fault({ method: '*', resource: 'tx', kind: 'status', status: 500, times: 1000 });
    const second = await visit({
      vendor: 'DEMO-4',
      tillId: till,
      items: [{ itemId: zeitung, quantity: 1 }],
      cash: 150,
      expectedCredit: 0,
    });
    const receipt = await get(`/api/counter/visits/${second.id}/receipt`);
    assert.equal(receipt.status, 200);
    assert.ok(receipt.text.includes('TSE ausgefallen'));
    const failures = (await get('/api/fiscal/failures')).body.transactions as { lastError: string }[];
    assert.match(failures[0].lastError, /HTTP 500/);
    const { apiKey } = await simulatorCredentials(t.db);
    await fetch(`${shop.url}/fiscal-sandbox/faults`, {
      method: 'DELETE',
      headers: { Authorization: `Bearer ${apiKey}` },
    });
    assert.deepEqual((await post('/api/fiscal/retry', {})).body.transactions, []);
  });

  it('taking the TSS out of service disables it at the TSE with its clients; the next signing sets up a new TSS', async () => {
    const till = await tillId();
    assert.deepEqual((await post('/api/fiscal/retry', {})).body.transactions, []);
    const [first] = await transactions(t.db);
    const disabled = await post('/api/fiscal/tss/disable', {});
    assert.equal(disabled.status, 200, JSON.stringify(disabled.body));
    assert.equal(disabled.body.tssId, first.signature!.tssId);
    const atSimulator = await t.db('fiscal_sandbox_tss').where({ id: first.signature!.tssId }).first('state');
    assert.equal(atSimulator.state, 'DISABLED');
    assert.deepEqual(await t.db('fiscal_clients').where({ tss_id: first.signature!.tssId }).pluck('state'), [
      'DEREGISTERED',
    ]);
    // nothing left in service: a second time is refused with a sentence
    const again = await post('/api/fiscal/tss/disable', {});
    assert.equal(again.status, 409);
    assert.match(again.body.message ?? JSON.stringify(again.body), /no TSS in service/);

    assert.equal(
      (await post(`/api/tills/${till}/movements`, { kind: 'income', amount: 100, reason: 'Spende' })).status,
      201,
    );
    assert.deepEqual((await post('/api/fiscal/retry', {})).body.transactions, []);
    const next = (await transactions(t.db)).at(-1)!;
    assert.notEqual(next.signature!.tssId, first.signature!.tssId);
    assert.equal(
      (await t.db('fiscal_sandbox_tss').where({ id: next.signature!.tssId }).first('state')).state,
      'INITIALIZED',
    );
    assert.equal(next.signature!.clientSerial, tillSerial(till));
  });

  it('the simulator refuses a receipt fiskaly’s standard_v1 schema refuses', async () => {
    await tillId();
    assert.deepEqual((await post('/api/fiscal/retry', {})).body.transactions, []);
    const [opening] = await transactions(t.db);
    const { apiKey, apiSecret } = await simulatorCredentials(t.db);
    const base = `${shop.url}/fiscal-sandbox/api/v2`;
    const auth = (await (
      await fetch(`${base}/auth`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ api_key: apiKey, api_secret: apiSecret }),
      })
    ).json()) as { access_token: string };
    const put = (txId: string, revision: number, body: object) =>
      fetch(`${base}/tss/${opening.signature!.tssId}/tx/${txId}?tx_revision=${revision}`, {
        method: 'PUT',
        headers: { Authorization: `Bearer ${auth.access_token}`, 'Content-Type': 'application/json' },
        body: JSON.stringify({ client_id: opening.signature!.clientId, ...body }),
      });
    const good = {
      receipt_type: 'RECEIPT',
      amounts_per_vat_rate: [{ vat_rate: 'REDUCED_1', amount: '1.50' }],
      amounts_per_payment_type: [{ payment_type: 'CASH', amount: '1.50', currency_code: 'EUR' }],
    };
    const refusals: [string, object | undefined][] = [
      ['no schema', undefined],
      ['a receipt type of none', { ...good, receipt_type: 'SALE' }],
      ['a rate of none', { ...good, amounts_per_vat_rate: [{ vat_rate: 'REDUCED_2', amount: '1.50' }] }],
      ['an amount as a number', { ...good, amounts_per_vat_rate: [{ vat_rate: 'REDUCED_1', amount: 1.5 }] }],
      ['an amount with one place', { ...good, amounts_per_payment_type: [{ payment_type: 'CASH', amount: '1.5' }] }],
      ['a payment type of none', { ...good, amounts_per_payment_type: [{ payment_type: 'CARD', amount: '1.50' }] }],
      ['a field of none', { ...good, total: '1.50' }],
    ];
    for (const [what, receipt] of refusals) {
      const txId = randomUUID();
      assert.equal((await put(txId, 1, { state: 'ACTIVE' })).status, 200, what);
      const res = await put(txId, 2, {
        state: 'FINISHED',
        ...(receipt ? { schema: { standard_v1: { receipt } } } : {}),
      });
      assert.equal(res.status, 400, what);
      assert.equal(((await res.json()) as { code: string }).code, 'E_SCHEMA_VALIDATION', what);
    }
    const txId = randomUUID();
    await put(txId, 1, { state: 'ACTIVE' });
    assert.equal((await put(txId, 2, { state: 'FINISHED', schema: { standard_v1: { receipt: good } } })).status, 200);
  });
});
