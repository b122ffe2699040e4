import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { strFromU8, unzipSync } from 'fflate';
import type supertest from 'supertest';
import type { Db } from '../../api/src/db/connection.ts';
import { checkBooks } from '../../api/src/ledger/consistency.ts';
import { vendorAccountSummary } from '../../api/src/ledger/queries.ts';
import { eraseCustomerEmails, erasureLockKey } from '../../api/src/privacy/erase-emails.ts';
import { exportFiles } from '../../api/src/privacy/export.ts';
import { describeApi } from '../support/env.ts';
import { listenBooksShop, sell } from '../support/sales.ts';
import type { ListeningShop } from '../support/shop-server.ts';

// Privacy: a vendor's data export, anonymising a vendor and the erasure of
// customers' e-mail addresses after their download links expired.

/** Every column of every table that can hold text: text, varchar, arrays of them, json, jsonb. */
async function textColumns(db: Db): Promise<{ table: string; column: string }[]> {
  const { rows } = await db.raw<{ rows: { table: string; column: string }[] }>(`
    select c.table_name as "table", c.column_name as "column"
    from information_schema.columns c
    join information_schema.tables t on t.table_schema = c.table_schema and t.table_name = c.table_name
    where c.table_schema = current_schema() and t.table_type = 'BASE TABLE'
      and (c.data_type in ('text', 'character varying', 'character', 'json', 'jsonb')
           or (c.data_type = 'ARRAY' and c.udt_name in ('_text', '_varchar')))
    order by 1, 2`);
  return rows;
}

/** Where in the whole database any of the texts still appears (case-insensitively), as "table.column: text". */
async function findAnywhere(db: Db, texts: string[]): Promise<string[]> {
  const hits: string[] = [];
  for (const { table, column } of await textColumns(db)) {
    for (const text of texts) {
      const { rows } = await db.raw<{ rows: { n: number }[] }>(
        `select count(*)::integer as n from ?? where strpos(lower(??::text), lower(?)) > 0`,
        [table, column, text],
      );
      if (rows[0].n) hits.push(`${table}.${column}: ${text}`);
    }
  }
  return hits;
}

async function booksProblems(db: Db): Promise<string[]> {
  return db.transaction(async (trx) => (await checkBooks(trx)).flatMap((c) => c.problems));
}

/** The vendor's booked money per kind, signed from their side. */
async function sumsPerKind(db: Db, vendorId: number): Promise<Record<string, number>> {
  const { rows } = await db.raw<{ rows: { kind: string; total: string }[] }>(
    `select r.kind, sum(case when r.receiver_id = a.id then r.amount else -r.amount end)::bigint as total
     from ledger_rows r join ledger_accounts a on a.vendor_id = ? and a.id in (r.sender_id, r.receiver_id)
     group by r.kind order by r.kind`,
    [vendorId],
  );
  return Object.fromEntries(rows.map((r) => [r.kind, Number(r.total)]));
}

const ledgerTotal = async (db: Db) =>
  Number((await db('ledger_rows').sum<{ total: string }>('amount as total').first())!.total);

const person = {
  licenseId: 'PRIV-1',
  firstName: 'Zenobia',
  lastName: 'Quastfeldner',
  email: 'zenobia.quastfeldner@example.net',
  telephone: '+43 660 7654321',
  address: 'Lerchenfelder Gürtel 99',
  postCode: '1070',
  language: 'en',
};
const locationOf = { name: 'Zenobias Ecke am Yppenmarkt', address: 'Yppenplatz 4711' };
const commentText = 'Zenobia braucht einen neuen Ausweis';
const personalTexts = [
  person.firstName,
  person.lastName,
  person.email,
  person.telephone,
  person.address,
  locationOf.name,
  locationOf.address,
  commentText,
];

describeApi('privacy: a vendor’s data export and anonymisation', (t) => {
  let shop: ListeningShop;
  let office = '';
  let vendorId = 0;
  before(async () => {
    shop = await listenBooksShop(t);
    office = await t.office();
  });
  after(() => shop.close());

  const as = <R extends supertest.Test>(request: R) => request.set('Authorization', office);
  const credit = async () => (await vendorAccountSummary(t.db, vendorId)).credit;
  const payOutAll = async () => {
    const res = await as(t.http.post('/api/payments/payout/')).send({
      vendor: person.licenseId,
      expectedAmount: await credit(),
    });
    assert.equal(res.status, 201, JSON.stringify(res.body));
  };
  const zipOf = async (id: number) => {
    const res = await as(t.http.get(`/api/vendors/${id}/export`))
      .buffer(true)
      .parse((response, done) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () => done(null, Buffer.concat(chunks)));
      });
    return res as supertest.Response & { body: Buffer };
  };

  it('sets up a vendor with a profile, a location, a comment, a changed phone number, sales and a payout', async function () {
    this.timeout(60_000);
    const created = await as(t.http.post('/api/vendors')).send({ ...person, telephone: '+43 1 000000' });
    assert.equal(created.status, 201, JSON.stringify(created.body));
    vendorId = created.body.id;
    const changed = await as(t.http.put(`/api/vendors/${vendorId}`)).send({ ...created.body, ...person });
    assert.equal(changed.status, 200, JSON.stringify(changed.body));
    const location = await as(t.http.post(`/api/vendors/${vendorId}/locations`)).send(locationOf);
    assert.equal(location.status, 201, JSON.stringify(location.body));
    const comment = await as(t.http.post(`/api/vendors/${vendorId}/comments`)).send({ comment: commentText });
    assert.equal(comment.status, 201, JSON.stringify(comment.body));
    // What logins leave: a failed attempt at the vendor's login name (protocol and throttle), and an
    // entry written by the vendor's own login.
    const account = await t.db('accounts').where({ vendor_id: vendorId }).first('id');
    await t.db('protocol_entries').insert([
      { action: 'login.failed', actor_name: 'priv-1', details: JSON.stringify({ ip: '192.0.2.17' }) },
      { action: 'POST /api/example', actor_sub: String(account.id), actor_name: person.licenseId },
    ]);
    await t.db('login_throttle').insert({ scope: 'pair', username: 'priv-1', address: '192.0.2.17', attempts: 1 });
    await sell(shop, t.db, { vendor: person.licenseId, items: { Zeitung: 2 }, tip: 150 });
    await payOutAll();
    await sell(shop, t.db, { vendor: person.licenseId, items: { 'Digitale Ausgabe': 1 } });
    assert.ok((await credit()) > 0);
  });

  it('export: staff get one ZIP with the listed files, a README in the vendor’s language, and ledger rows that sum to the credit', async () => {
    const res = await zipOf(vendorId);
    assert.equal(res.status, 200);
    assert.equal(res.headers['content-type'], 'application/zip');
    const day = new Date().toISOString().slice(0, 10);
    assert.equal(res.headers['content-disposition'], `attachment; filename="datenauskunft-PRIV-1-${day}.zip"`);
    const files = unzipSync(new Uint8Array(res.body));
    assert.deepEqual(Object.keys(files).sort(), [...exportFiles].sort());
    const text = (name: string) => strFromU8(files[name]);
    assert.match(text('README.txt'), /Copy of your data \(Art\. 15 GDPR\)/);
    for (const file of exportFiles) assert.ok(text('README.txt').includes(`${file}: `), file);
    const profile = JSON.parse(text('profile.json'));
    assert.deepEqual(
      [profile.firstName, profile.email, profile.telephone],
      [person.firstName, person.email, person.telephone],
    );
    assert.equal(JSON.parse(text('locations.json'))[0].name, locationOf.name);
    assert.equal(JSON.parse(text('comments.json'))[0].comment, commentText);
    const login = JSON.parse(text('login.json'));
    assert.equal(login.account.username, person.licenseId);
    const ledger = JSON.parse(text('ledger.json')) as { credit: number; rows: { amount: number; kind: string }[] };
    const open = await credit();
    assert.equal(ledger.credit, open);
    assert.equal(
      ledger.rows.reduce((sum, row) => sum + row.amount, 0),
      open,
      'the vendor’s signed rows sum to the credit',
    );
    assert.ok(ledger.rows.some((row) => row.kind === 'payout'));
    assert.equal(text('ledger.csv').trim().split('\r\n').length, ledger.rows.length + 1);
    assert.equal(text('payouts.csv').trim().split('\r\n').length, 2);
    const entry = await t
      .db('protocol_entries')
      .where({ action: 'export', record_id: String(vendorId) })
      .first();
    assert.equal(entry?.actor_name, 'office');
  });

  it('export: the README and the CSVs name the installation’s currency, in francs for a German reader and in whole yen', async () => {
    const csvAmount = (csv: string) => csv.trim().split('\r\n')[1].split(';')[2];
    try {
      await t.db('settings').update({ currency: 'CHF' });
      await t.db('vendors').where({ id: vendorId }).update({ language: 'de' });
      const swiss = unzipSync(new Uint8Array((await zipOf(vendorId)).body));
      const text = (name: string) => strFromU8(swiss[name]).replace(/[\u00a0\u202f]/g, ' ');
      for (const file of ['README.txt', 'ledger.csv', 'payouts.csv', 'counter-visits.csv'])
        assert.doesNotMatch(text(file), /€|EUR|Euro|Cent\b/, `${file} names no euro`);
      assert.match(text('README.txt'), /Alle Beträge sind in CHF: .*\(150 steht für CHF 1\.50\)/);
      assert.match(text('ledger.csv'), /"Betrag \(CHF\)"/);
      assert.match(text('payouts.csv'), /"Betrag \(CHF\)"/);
      assert.match(text('counter-visits.csv'), /"Exemplare \(CHF\)";"Vom Guthaben \(CHF\)";"Bar \(CHF\)"/);
      assert.match(csvAmount(text('payouts.csv')), /^"\d+,\d\d"$/);

      await t.db('settings').update({ currency: 'JPY' });
      await t.db('vendors').where({ id: vendorId }).update({ language: 'en' });
      const japanese = unzipSync(new Uint8Array((await zipOf(vendorId)).body));
      const readme = strFromU8(japanese['README.txt']);
      assert.match(readme, /All amounts are in JPY: .*\(150 stands for ¥150\)/);
      const payouts = strFromU8(japanese['payouts.csv']);
      assert.match(payouts, /"Amount \(JPY\)"/);
      assert.match(csvAmount(payouts), /^"\d+"$/, 'whole yen');
    } finally {
      await t.db('settings').update({ currency: 'EUR' });
      await t.db('vendors').where({ id: vendorId }).update({ language: 'en' });
    }
  });

  it('export: unknown vendors are 404, vendors and the public may not export', async () => {
    assert.equal((await as(t.http.get('/api/vendors/999999/export'))).status, 404);
    assert.equal((await as(t.http.get('/api/vendors/abc/export'))).status, 400);
    assert.equal((await t.http.get(`/api/vendors/${vendorId}/export`)).status, 401);
    const vendor = await t.auth(['vendor'], { vendor: person.licenseId });
    assert.equal((await t.http.get(`/api/vendors/${vendorId}/export`).set('Authorization', vendor)).status, 403);
  });

  it('refused while the credit is not zero, and nothing is changed', async () => {
    const res = await as(t.http.post(`/api/vendors/${vendorId}/anonymise`));
    assert.equal(res.status, 409);
    assert.match(res.body.message, /cannot be anonymised: the credit is not zero/);
    const vendor = await t.db('vendors').where({ id: vendorId }).first();
    assert.equal(vendor.first_name, person.firstName);
    assert.equal(vendor.anonymised_at, null);
  });

  it('anonymised, no personal value is left in any text column, the books balance, the sums stay, the licence id is free', async function () {
    this.timeout(60_000);
    await payOutAll();
    assert.equal(await credit(), 0);
    const sumsBefore = await sumsPerKind(t.db, vendorId);
    const totalBefore = await ledgerTotal(t.db);
    assert.ok((await findAnywhere(t.db, personalTexts)).length > 0, 'the search finds the values before');

    const res = await as(t.http.post(`/api/vendors/${vendorId}/anonymise`));
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.equal(res.body.name, `Gelöscht #${vendorId}`);

    assert.deepEqual(await findAnywhere(t.db, personalTexts), []);
    assert.deepEqual(await booksProblems(t.db), []);
    assert.equal(await ledgerTotal(t.db), totalBefore);
    assert.deepEqual(await sumsPerKind(t.db, vendorId), sumsBefore);
    const vendor = await t.db('vendors').where({ id: vendorId }).first();
    assert.deepEqual([vendor.license_id, vendor.first_name, vendor.email], [null, `Gelöscht #${vendorId}`, null]);
    assert.equal(await t.db('accounts').where({ vendor_id: vendorId }).first(), undefined);
    assert.deepEqual(await t.db('login_throttle').where({ username: 'priv-1' }), []);
    const logins = await t.db('protocol_entries').whereIn('action', ['login.failed', 'POST /api/example']);
    assert.deepEqual(
      logins.map((e: { actor_name: string }) => e.actor_name),
      [`Gelöscht #${vendorId}`, `Gelöscht #${vendorId}`],
    );

    // The protocol says who did it, and not what the values were.
    const entry = await t
      .db('protocol_entries')
      .where({ action: 'anonymise', record_id: String(vendorId) })
      .first();
    assert.equal(entry.actor_name, 'office');
    assert.deepEqual(Object.keys(entry.changes), ['anonymisedAt']);

    // The books name the vendor by the pseudonym, in the reader's language.
    const payouts = await as(t.http.get('/api/payments').query({ range: '[0,999]' }));
    assert.equal(payouts.status, 200, JSON.stringify(payouts.body));
    assert.ok(JSON.stringify(payouts.body).includes(`"Deleted #${vendorId}"`), JSON.stringify(payouts.body));
    const german = await as(t.http.get('/api/payments').query({ range: '[0,999]' })).set('Accept-Language', 'de');
    assert.ok(JSON.stringify(german.body).includes(`"Gelöscht #${vendorId}"`), JSON.stringify(german.body));

    const successor = await as(t.http.post('/api/vendors')).send({
      licenseId: person.licenseId,
      firstName: 'Nachfolge',
    });
    assert.equal(successor.status, 201, JSON.stringify(successor.body));
  });

  it('an anonymised vendor is not anonymised twice; what is left can still be exported', async () => {
    const again = await as(t.http.post(`/api/vendors/${vendorId}/anonymise`));
    assert.equal(again.status, 409);
    assert.equal(again.body.message, 'This vendor has already been anonymised.');
    const res = await zipOf(vendorId);
    assert.equal(res.status, 200);
    const files = unzipSync(new Uint8Array(res.body));
    assert.equal(JSON.parse(strFromU8(files['profile.json'])).firstName, `Gelöscht #${vendorId}`);
    assert.match(strFromU8(files['README.txt']), /Datenauskunft/);
  });

  it('anonymising an unknown vendor is 404, and only staff may', async () => {
    assert.equal((await as(t.http.post('/api/vendors/999999/anonymise'))).status, 404);
    assert.equal((await t.http.post(`/api/vendors/${vendorId}/anonymise`)).status, 401);
  });
});

describeApi('privacy: customers’ e-mail addresses erased after their links expire', (t) => {
  const days = 90;
  const dayMs = 86_400_000;

  /** A paid order with the address, placed `placedDaysAgo`, with one download link expiring `linkDaysAgo` (none: no link). */
  async function order(email: string, placedDaysAgo: number, linkDaysAgo?: number): Promise<number> {
    const vendor = await t.db('vendors').where({ license_id: 'DEMO-1' }).first('id');
    const at = new Date(Date.now() - placedDaysAgo * dayMs);
    const [{ id }] = await t
      .db('orders')
      .insert({
        token: randomBytes(32).toString('base64url'),
        vendor_id: vendor.id,
        status: 'expired',
        amount_total: 300,
        email,
        expires_at: at,
        created_at: at,
      })
      .returning<{ id: number }[]>('id');
    if (linkDaysAgo !== undefined) {
      const pdf = await t.db('items').where({ is_pdf_item: true }).first('id', 'pdf_file_id');
      await t.db('download_links').insert({
        id: randomBytes(24).toString('base64url'),
        order_id: id,
        item_id: pdf.id,
        file_id: pdf.pdf_file_id,
        expires_at: new Date(Date.now() - linkDaysAgo * dayMs),
      });
    }
    await t
      .db('outbox')
      .insert({ kind: 'pdf-links', order_id: id, recipient: email, subject: 'Links', text: '…', status: 'stored' });
    return id;
  }

  const emailOf = async (id: number) => (await t.db('orders').where({ id }).first('email')).email as string | null;

  beforeEach(() => t.reset());

  it('orders whose links expired more than N days ago lose the address (and their mails’ copy); younger ones keep it', async () => {
    const expired = await order('old.reader@example.org', 140, days + 5);
    const young = await order('young.reader@example.org', 60, days - 5);
    const withoutLink = await order('print.reader@example.org', days + 1);
    const recent = await order('recent.reader@example.org', 3);
    const run = await eraseCustomerEmails(t.db, { customerEmailDays: days });
    assert.deepEqual(run, { ran: true, orders: 2 });
    assert.equal(await emailOf(expired), null);
    assert.equal(await emailOf(withoutLink), null);
    assert.equal(await emailOf(young), 'young.reader@example.org');
    assert.equal(await emailOf(recent), 'recent.reader@example.org');
    const mails = await t.db('outbox').whereIn('order_id', [expired, withoutLink, young]).orderBy('order_id');
    assert.deepEqual(
      mails.map((m: { recipient: string | null }) => m.recipient),
      [null, 'young.reader@example.org', null],
    );
    assert.deepEqual(await findAnywhere(t.db, ['old.reader@example.org', 'print.reader@example.org']), []);
    assert.deepEqual(await eraseCustomerEmails(t.db, { customerEmailDays: days }), { ran: true, orders: 0 });
  });

  it('the copies Stripe’s objects keep of a paid order’s address go with it', async function () {
    this.timeout(60_000);
    const shop = await listenBooksShop(t);
    try {
      // A digital edition's buyer: only that address is handed to Stripe.
      const sold = await sell(shop, t.db, { vendor: 'DEMO-2', items: { 'Digitale Ausgabe': 1 } });
      assert.ok(
        (await findAnywhere(t.db, ['reader@example.org'])).some((hit) => hit.startsWith('stripe_sandbox_objects')),
      );
      await t
        .db('orders')
        .where({ id: sold.id })
        .update({ created_at: new Date(Date.now() - (days + 1) * dayMs) });
      await t
        .db('download_links')
        .where({ order_id: sold.id })
        .update({ expires_at: new Date(Date.now() - (days + 1) * dayMs) });
      const run = await eraseCustomerEmails(t.db, { customerEmailDays: days });
      assert.equal(run.orders, 1);
      assert.deepEqual(await findAnywhere(t.db, ['reader@example.org']), []);
      assert.deepEqual(await booksProblems(t.db), []);
    } finally {
      await shop.close();
    }
  });

  it('two runs at once do not both work: one erases, the other finds nothing to do', async () => {
    const ids = await Promise.all([1, 2, 3].map((n) => order(`twice${n}@example.org`, days + 10)));
    const runs = await Promise.all([
      eraseCustomerEmails(t.db, { customerEmailDays: days }),
      eraseCustomerEmails(t.db, { customerEmailDays: days }),
    ]);
    assert.deepEqual(runs.map((r) => r.orders).sort(), [0, 3], JSON.stringify(runs));
    for (const id of ids) assert.equal(await emailOf(id), null);
  });

  it('a run while another process holds the job does nothing', async function () {
    if (t.engine !== 'postgres') this.skip(); // PGlite has one connection: a held lock would block the run itself
    const id = await order('held@example.org', days + 10);
    let release = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    let locked = () => {};
    const isLocked = new Promise<void>((resolve) => (locked = resolve));
    const holder = t.db.transaction(async (trx) => {
      await trx.raw('select pg_advisory_xact_lock(?, hashtext(current_schema()))', [erasureLockKey]);
      locked();
      await held;
    });
    await isLocked;
    try {
      assert.deepEqual(await eraseCustomerEmails(t.db, { customerEmailDays: days }), { ran: false, orders: 0 });
      assert.equal(await emailOf(id), 'held@example.org');
    } finally {
      release();
      await holder;
    }
    assert.deepEqual(await eraseCustomerEmails(t.db, { customerEmailDays: days }), { ran: true, orders: 1 });
  });
});
