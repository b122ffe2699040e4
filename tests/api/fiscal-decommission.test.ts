import assert from 'node:assert/strict';
import { strFromU8, unzipSync } from 'fflate';
import { describeApi } from '../support/env.ts';
import { listenShop, type ListeningShop } from '../support/shop-server.ts';

// Taking a signing till out of signing is a step of its own: refused without a reason (in German and
// English), recorded with its reason and the TSE's serial under an action of its own in the protocol,
// shown in the fiscal overview, and named in the DSFinV-K for the Bons after it.

/** The rows of one CSV of the DSFinV-K ZIP, by its header (`;` between fields, text in quotes). */
function rowsOf(zip: Uint8Array, file: string): Record<string, string>[] {
  const [header, ...lines] = strFromU8(unzipSync(zip)[file]).split('\r\n').filter(Boolean);
  const split = (line: string) =>
    [...line.matchAll(/"((?:[^"]|"")*)"|([^;]*)/g)]
      .filter((m) => m.index === 0 || line[m.index - 1] === ';')
      .map((m) => (m[1] !== undefined ? m[1].replace(/""/g, '"') : m[2]));
  const columns = split(header);
  return lines.map((line) => Object.fromEntries(split(line).map((value, i) => [columns[i], value])));
}

describeApi('fiscal: taking a till out of signing', (t) => {
  let shop: ListeningShop;
  let office = '';
  before(async () => {
    shop = await listenShop(t, (config) => ({ fiscal: { ...config.fiscal, mode: 'off', country: 'DE' } }));
    office = await t.office();
  });
  after(() => shop.close());
  beforeEach(() => t.reset());

  const get = (path: string) => shop.http.get(path).set('Authorization', office);
  const post = (path: string, body: object) => shop.http.post(path).set('Authorization', office).send(body);
  const put = (till: number, body: object, language = 'en') =>
    shop.http.put(`/api/tills/${till}/fiscal`).set('Authorization', office).set('Accept-Language', language).send(body);

  /** The first till, signing in test mode with its opening balance signed; its TSE's serial. */
  async function signingTill(): Promise<{ till: number; tssSerial: string }> {
    const till = (await get('/api/tills')).body.tills[0].id as number;
    assert.equal((await put(till, { mode: 'test', country: 'DE' })).status, 200);
    assert.equal((await post('/api/fiscal/retry', {})).body.transactions.length, 0, 'the opening balance is signed');
    const overview = (await get('/api/fiscal')).body as { tills: { tillId: number; tssSerial: string }[] };
    const tssSerial = overview.tills.find((x) => x.tillId === till)!.tssSerial;
    assert.match(tssSerial, /^[0-9a-f]{64}$/, 'the TSE serial, from its signature');
    return { till, tssSerial };
  }

  it('refuses to switch a signing till off without a reason, naming it in German and English; it keeps signing', async () => {
    const { till } = await signingTill();
    for (const body of [
      { mode: 'off', country: null },
      { mode: 'off', country: null, reason: '   ' },
    ]) {
      const english = await put(till, body);
      assert.equal(english.status, 400, JSON.stringify(english.body));
      assert.equal(
        english.body.message,
        'Taking a till out of signing needs a reason: the end of its TSE’s use must be reported to the tax office.',
      );
      assert.equal(english.body.errors.reason, 'Please give the reason for taking the till out of signing.');
    }
    const german = await put(till, { mode: 'off', country: null }, 'de');
    assert.equal(german.status, 400);
    assert.equal(
      german.body.message,
      'Eine Kasse aus dem Signieren zu nehmen braucht einen Grund: Das Ende der Nutzung ihrer TSE ist dem Finanzamt zu melden.',
    );
    // Following the installation, which signs nothing, is switching off too.
    assert.equal((await put(till, { mode: null, country: null })).status, 400);
    const overview = (await get('/api/fiscal')).body as { tills: { tillId: number; effectiveMode: string }[] };
    assert.equal(overview.tills.find((x) => x.tillId === till)!.effectiveMode, 'test', 'still signing');
    const entries = (await get(`/api/protocol?filter=${JSON.stringify({ action: 'fiscal.decommissioned' })}`)).body;
    assert.deepEqual(entries, [], 'nothing recorded');
  });

  it('with a reason it switches off and writes a protocol entry of its own with the reason and the TSE serial', async () => {
    const { till, tssSerial } = await signingTill();
    const reason = 'Die Kasse wird am Standort nicht mehr genutzt.';
    const res = await put(till, { mode: 'off', country: null, reason });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.equal(res.body.effectiveMode, 'off');
    assert.equal(res.body.decommission.reason, reason);
    assert.equal(res.body.decommission.tssSerial, tssSerial);

    const entries = (await get(`/api/protocol?filter=${JSON.stringify({ action: 'fiscal.decommissioned' })}`)).body as {
      action: string;
      username: string;
      recordType: string;
      recordId: string;
      details: Record<string, unknown>;
    }[];
    assert.equal(entries.length, 1, JSON.stringify(entries));
    assert.deepEqual(
      {
        action: entries[0].action,
        username: entries[0].username,
        recordType: entries[0].recordType,
        recordId: entries[0].recordId,
        reason: entries[0].details.reason,
        tssSerial: entries[0].details.tssSerial,
        mode: entries[0].details.mode,
        country: entries[0].details.country,
      },
      {
        action: 'fiscal.decommissioned',
        username: 'office',
        recordType: 'till_fiscal',
        recordId: String(till),
        reason,
        tssSerial,
        mode: 'test',
        country: 'DE',
      },
    );
    const overview = (await get('/api/fiscal')).body as {
      tills: { tillId: number; decommissions: { reason: string; tssSerial: string; by: string }[] }[];
    };
    assert.deepEqual(
      overview.tills.find((x) => x.tillId === till)!.decommissions.map((d) => [d.reason, d.tssSerial, d.by]),
      [[reason, tssSerial, 'office']],
    );
    // A till that signs nothing is switched off again (or stays off) without a step of its own.
    assert.equal((await put(till, { mode: 'off', country: 'DE' })).status, 200);
    assert.equal(
      (await get(`/api/protocol?filter=${JSON.stringify({ action: 'fiscal.decommissioned' })}`)).body.length,
      1,
    );
  });

  it('the DSFinV-K names the end of the TSE’s service, its time and reason, for the Bons after it', async () => {
    const { till, tssSerial } = await signingTill();
    const today = (await get('/api/tills')).body.today as string;
    const reason = 'TSE-Zertifikat abgelaufen, Kasse ausgemustert';
    assert.equal((await put(till, { mode: 'off', country: null, reason })).status, 200);
    assert.equal(
      (await post(`/api/tills/${till}/movements`, { kind: 'income', amount: 500, reason: 'Spende' })).status,
      201,
    );
    const balance = ((await get('/api/tills')).body.tills as { id: number; balance: number }[]).find(
      (b) => b.id === till,
    )!.balance;
    assert.equal((await post(`/api/tills/${till}/closes`, { counted: balance, expected: balance })).status, 201);

    const res = await get(`/api/tills/dsfinvk?from=${today}&to=${today}`)
      .buffer(true)
      .parse((r, done) => {
        const chunks: Buffer[] = [];
        r.on('data', (c: Buffer) => chunks.push(c));
        r.on('end', () => done(null, Buffer.concat(chunks)));
      });
    assert.equal(res.status, 200, String(res.body));
    const zip = new Uint8Array(res.body as Buffer);
    const tse = rowsOf(zip, 'transactions_tse.csv');
    assert.equal(tse.length, 2, JSON.stringify(tse));
    assert.deepEqual([tse[0].TSE_TANR, tse[0].TSE_TA_FEHLER], ['1', ''], 'the opening balance, signed');
    const after = tse[1];
    assert.equal(after.TSE_TA_SIG, '');
    assert.match(after.TSE_TA_FEHLER, /^TSE außer Betrieb genommen am \d{2}\.\d{2}\.\d{4} \d{2}:\d{2}: /);
    assert.ok(after.TSE_TA_FEHLER.includes(reason), after.TSE_TA_FEHLER);
    // The Bon names the TSE that was taken out of service, by its row in tse.csv.
    const devices = rowsOf(zip, 'tse.csv');
    assert.deepEqual(
      devices.filter((d) => d.TSE_ID === after.TSE_ID).map((d) => d.TSE_SERIAL),
      [tssSerial],
    );
  });
});
