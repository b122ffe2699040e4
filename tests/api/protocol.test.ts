import assert from 'node:assert/strict';
import type { ProtocolEntry } from '../../api/src/protocol/queries.ts';
import { recordEvent } from '../../api/src/protocol/record.ts';
import { buildApp } from '../../api/src/app.ts';
import type { RouteDef } from '../../api/src/http/routes.ts';
import { describeApi } from '../support/env.ts';
import { pngBytes, withForm } from '../support/fixtures.ts';
import supertest from 'supertest';
import { localDay } from '../../api/src/foundations/period.ts';
import { bookPaidOrder } from '../support/books.ts';

describeApi('protocol of changes', (t) => {
  let maria = '';
  let office = '';
  let counter = 0;

  before(async () => {
    maria = await t.auth(['backoffice'], { sub: 'staff-maria', preferred_username: 'maria' });
    office = await t.office();
  });

  async function protocol(filter: Record<string, unknown> = {}, extra = ''): Promise<ProtocolEntry[]> {
    const res = await t.http
      .get(`/api/protocol/?filter=${encodeURIComponent(JSON.stringify(filter))}${extra}`)
      .set('Authorization', office);
    assert.equal(res.status, 200, JSON.stringify(res.body));
    return res.body;
  }
  const entriesOf = (recordType: string, recordId: number | string) =>
    protocol({ recordType, recordId: String(recordId) });

  async function createVendor(as = maria) {
    const res = await t.http
      .post('/api/vendors')
      .set('Authorization', as)
      .send({ licenseId: `PR-${++counter}`, firstName: 'Petra', lastName: 'Alt' });
    assert.equal(res.status, 201, JSON.stringify(res.body));
    return res.body as Record<string, unknown> & { id: number };
  }

  describe('vendors', () => {
    it('records an update with who did it and only the changed fields, before and after', async () => {
      const vendor = await createVendor();
      const res = await t.http
        .put(`/api/vendors/${vendor.id}`)
        .set('Authorization', maria)
        .send({ ...vendor, lastName: 'Neu', telephone: '+43 1 234', hasSmartphone: true });
      assert.equal(res.status, 200, JSON.stringify(res.body));

      const [update, create] = await entriesOf('vendor', vendor.id);
      assert.equal(update.action, 'update');
      assert.equal(update.userSub, 'staff-maria');
      assert.equal(update.username, 'maria');
      assert.deepEqual(update.changes, {
        lastName: { before: 'Alt', after: 'Neu' },
        telephone: { before: '', after: '+43 1 234' },
        hasSmartphone: { before: false, after: true },
      });
      assert.ok(Date.now() - Date.parse(update.at) < 60_000, 'the time of the change is recorded');
      assert.equal(create.action, 'create');
      assert.equal(create.changes?.licenseId?.after, vendor.licenseId);
      assert.equal(create.changes?.licenseId?.before, null);
    });

    it('records a deletion with the values the vendor had', async () => {
      const vendor = await createVendor();
      assert.equal((await t.http.delete(`/api/vendors/${vendor.id}`).set('Authorization', maria)).status, 200);
      const [deletion] = await entriesOf('vendor', vendor.id);
      assert.equal(deletion.action, 'delete');
      assert.deepEqual(deletion.changes?.firstName, { before: 'Petra', after: null });
    });

    it('records locations and comments with the vendor they belong to', async () => {
      const vendor = await createVendor();
      const location = await t.http
        .post(`/api/vendors/${vendor.id}/locations`)
        .set('Authorization', maria)
        .send({ name: 'Praterstern' });
      assert.equal(location.status, 201, JSON.stringify(location.body));
      const moved = await t.http
        .patch(`/api/vendors/${vendor.id}/locations/${location.body.id}`)
        .set('Authorization', maria)
        .send({ name: 'Westbahnhof' });
      assert.equal(moved.status, 200, JSON.stringify(moved.body));
      const comment = await t.http
        .post(`/api/vendors/${vendor.id}/comments`)
        .set('Authorization', maria)
        .send({ comment: 'Badge lost', warning: true });
      assert.equal(comment.status, 201, JSON.stringify(comment.body));
      assert.equal(
        (await t.http.delete(`/api/vendors/${vendor.id}/comments/${comment.body.id}`).set('Authorization', maria))
          .status,
        200,
      );

      const [patch, create] = await entriesOf('vendor_location', location.body.id);
      assert.equal(create.action, 'create');
      assert.deepEqual(patch.changes, { name: { before: 'Praterstern', after: 'Westbahnhof' } });
      assert.deepEqual(patch.details, { vendorId: vendor.id });
      const [removed] = await entriesOf('vendor_comment', comment.body.id);
      assert.equal(removed.action, 'delete');
      assert.equal(removed.changes?.comment?.before, 'Badge lost');
      assert.deepEqual(removed.details, { vendorId: vendor.id });
    });

    it('records nothing for a refused change and nothing for a read', async () => {
      const vendor = await createVendor();
      const before = await protocol();
      const refused = await t.http
        .put(`/api/vendors/${vendor.id}`)
        .set('Authorization', maria)
        .send({ ...vendor, email: 'not an address' });
      assert.equal(refused.status, 400);
      assert.equal((await t.http.get(`/api/vendors/${vendor.id}`).set('Authorization', maria)).status, 200);
      assert.equal((await t.http.put(`/api/vendors/${vendor.id}`).send(vendor)).status, 401);
      assert.deepEqual(await protocol(), before);
    });

    it('refuses a malformed id or body before the database: no transaction begun, no record locked or read', async () => {
      const vendor = await createVendor();
      const statements: string[] = [];
      const seen = (query: { sql: string }) => statements.push(query.sql);
      t.db.client.on('query', seen);
      try {
        const refusals = [
          t.http.put(`/api/vendors/${vendor.id}`).send({ ...vendor, email: 'not an address' }),
          t.http.put('/api/vendors/qqq').send(vendor),
          t.http.patch(`/api/vendors/${vendor.id}`).send({ isDisabled: 'qqq' }),
          t.http.post('/api/vendors').send({ licenseId: [] }),
          t.http.post('/api/payments/payout').send({ vendor: 'qqq', amount: -1 }),
        ];
        for (const request of refusals) assert.equal((await request.set('Authorization', maria)).status, 400);
      } finally {
        t.db.client.removeListener('query', seen);
      }
      assert.deepEqual(statements, []);
    });

    it('queues concurrent changes of one vendor, so each entry starts where the previous one ended', async () => {
      const vendor = await createVendor();
      const results = await Promise.all(
        ['Eins', 'Zwei', 'Drei'].map((lastName) =>
          t.http
            .put(`/api/vendors/${vendor.id}`)
            .set('Authorization', maria)
            .send({ ...vendor, lastName }),
        ),
      );
      for (const res of results) assert.equal(res.status, 200, JSON.stringify(res.body));
      const updates = (await entriesOf('vendor', vendor.id)).filter((e) => e.action === 'update').reverse();
      assert.equal(updates.length, 3);
      assert.equal(updates[0].changes?.lastName?.before, 'Alt');
      for (let i = 1; i < updates.length; i++) {
        assert.equal(
          updates[i].changes?.lastName?.before,
          updates[i - 1].changes?.lastName?.after,
          'each change starts where the previous ended',
        );
      }
      const final = await t.http.get(`/api/vendors/${vendor.id}`).set('Authorization', office);
      assert.equal(final.body.lastName, updates[2].changes?.lastName?.after);
    });
  });

  describe('items and settings', () => {
    it('records an item change, an uploaded image as its new address and never the file bytes', async () => {
      const created = await withForm(t.http.post('/api/items').set('Authorization', maria), {
        name: 'Kalender',
        price: 1000,
      });
      assert.equal(created.status, 201, JSON.stringify(created.body));
      const image = pngBytes([9, 99, 199], 8);
      const res = await withForm(
        t.http.put(`/api/items/${created.body.id}`).set('Authorization', maria),
        { price: 1200 },
        { image: { bytes: image, name: 'kalender.png' } },
      );
      assert.equal(res.status, 200, JSON.stringify(res.body));

      const [update, create] = await entriesOf('item', created.body.id);
      assert.equal(create.action, 'create');
      assert.equal(create.changes?.name?.after, 'Kalender');
      assert.equal(update.username, 'maria');
      assert.deepEqual(Object.keys(update.changes ?? {}).sort(), ['image', 'price']);
      assert.deepEqual(update.changes?.price, { before: 1000, after: 1200 });
      assert.equal(update.changes?.image?.before, null);
      assert.equal(update.changes?.image?.after, res.body.image);
      const text = JSON.stringify(update);
      assert.ok(
        !text.includes(image.toString('base64')) && !text.includes(image.toString('hex')),
        'no file bytes in the protocol',
      );
    });

    it('records settings and custom CSS changes on the one settings record', async () => {
      const current = (await t.http.get('/api/settings')).body;
      const res = await withForm(t.http.put('/api/settings').set('Authorization', maria), {
        newspaperName: 'Neues Blatt',
        webshopIsClosed: !current.webshopIsClosed,
      });
      assert.equal(res.status, 200, JSON.stringify(res.body));
      const css = await t.http
        .put('/api/settings/css')
        .set('Authorization', maria)
        .set('Content-Type', 'text/css')
        .send('.shop { color: red }');
      assert.equal(css.status, 200, JSON.stringify(css.body));

      const [cssEntry, settingsEntry] = await entriesOf('settings', 1);
      assert.deepEqual(settingsEntry.changes, {
        newspaperName: { before: current.newspaperName, after: 'Neues Blatt' },
        webshopIsClosed: { before: current.webshopIsClosed, after: !current.webshopIsClosed },
      });
      assert.equal(cssEntry.action, 'update');
      assert.equal(cssEntry.changes?.styleCss?.after, '.shop { color: red }');
      assert.deepEqual(cssEntry.changes?.styleRevision, {
        before: current.styleRevision,
        after: css.body.styleRevision,
      });
    });
  });

  describe('names of the records', () => {
    const named = async (recordType: string, recordId: number, language = 'de') => {
      const res = await t.http
        .get(`/api/protocol/?filter=${encodeURIComponent(JSON.stringify({ recordType, recordId: String(recordId) }))}`)
        .set('Authorization', office)
        .set('Accept-Language', language);
      assert.equal(res.status, 200, JSON.stringify(res.body));
      return (res.body as ProtocolEntry[]).map((entry) => [entry.action, entry.recordName]);
    };

    it('names an item by its present name, a deleted vendor by the values the deletion kept, a payout by amount and vendor', async () => {
      const item = await withForm(t.http.post('/api/items').set('Authorization', maria), {
        name: 'Kalender',
        price: 300,
      });
      assert.equal(item.status, 201, JSON.stringify(item.body));
      await withForm(t.http.put(`/api/items/${item.body.id}`).set('Authorization', maria), { name: 'Wandkalender' });
      assert.deepEqual(await named('item', item.body.id), [
        ['update', { name: 'Wandkalender', licenseId: null, amount: null }],
        ['create', { name: 'Wandkalender', licenseId: null, amount: null }],
      ]);

      const vendor = await createVendor();
      assert.equal((await t.http.delete(`/api/vendors/${vendor.id}`).set('Authorization', maria)).status, 200);
      const [deletion] = await named('vendor', vendor.id);
      assert.deepEqual(deletion, ['delete', { name: 'Petra Alt', licenseId: vendor.licenseId, amount: null }]);

      const paid = await createVendor();
      await bookPaidOrder(t.db, paid.id, new Date(), { prints: 1, digital: 0, tip: 50 });
      const open = await t.http
        .get('/api/payments/forpayout/')
        .query({ vendor: paid.licenseId })
        .set('Authorization', maria);
      const payout = await t.http
        .post('/api/payments/payout/')
        .set('Authorization', maria)
        .send({ vendor: paid.licenseId, expectedAmount: open.body.balance });
      assert.equal(payout.status, 201, JSON.stringify(payout.body));
      assert.deepEqual(await named('payout', payout.body.id), [
        ['payout', { name: 'Petra Alt', licenseId: paid.licenseId, amount: open.body.balance }],
      ]);
    });

    it('names an anonymised vendor only by the pseudonym, in the reader’s language', async () => {
      const vendor = await createVendor();
      await t.http.post(`/api/vendors/${vendor.id}/comments`).set('Authorization', maria).send({ comment: 'Neu' });
      const anonymised = await t.http.post(`/api/vendors/${vendor.id}/anonymise`).set('Authorization', maria);
      assert.equal(anonymised.status, 200, JSON.stringify(anonymised.body));
      const pseudonym = { name: `Gelöscht #${vendor.id}`, licenseId: null, amount: null };
      for (const [, name] of await named('vendor', vendor.id)) assert.deepEqual(name, pseudonym);
      for (const [, name] of await named('vendor', vendor.id, 'en'))
        assert.deepEqual(name, { ...pseudonym, name: `Deleted #${vendor.id}` });
      const listed = await t.http
        .get(`/api/protocol/?filter=${encodeURIComponent('{"recordType":"vendor_comment"}')}`)
        .set('Authorization', office)
        .set('Accept-Language', 'de');
      const comments = (listed.body as ProtocolEntry[]).filter((entry) => entry.details?.vendorId === vendor.id);
      assert.deepEqual(
        comments.map((entry) => entry.recordName),
        [pseudonym],
      );
      const text = JSON.stringify(comments);
      assert.ok(!text.includes('Petra Alt'), 'no name of the anonymised vendor');
    });
  });

  describe('GET /api/protocol', () => {
    it('lists newest first as a simple-rest list and filters by user, record type, action and period', async () => {
      await t.reset();
      const jonas = await t.auth(['backoffice'], { sub: 'staff-jonas', preferred_username: 'Jonas' });
      const first = await createVendor(jonas);
      await createVendor(maria);
      const item = await withForm(t.http.post('/api/items').set('Authorization', jonas), { name: 'Heft', price: 250 });
      assert.equal(item.status, 201);
      assert.equal((await t.http.delete(`/api/vendors/${first.id}`).set('Authorization', jonas)).status, 200);

      const res = await t.http.get('/api/protocol/?range=[0,1]').set('Authorization', office);
      assert.equal(res.status, 200);
      assert.equal(res.headers['content-range'], 'protocol 0-1/4');
      assert.deepEqual(
        res.body.map((e: ProtocolEntry) => [e.action, e.recordType]),
        [
          ['delete', 'vendor'],
          ['create', 'item'],
        ],
      );

      const all = await protocol();
      const times = all.map((e) => Date.parse(e.at));
      assert.deepEqual(
        times,
        [...times].sort((a, b) => b - a),
        'newest first',
      );

      assert.deepEqual(
        (await protocol({ user: 'jonas' })).map((e) => e.action),
        ['delete', 'create', 'create'],
      );
      assert.equal((await protocol({ user: 'staff-maria' })).length, 1);
      assert.deepEqual(
        (await protocol({ recordType: 'item' })).map((e) => e.recordId),
        [String(item.body.id)],
      );
      assert.deepEqual(
        (await protocol({ action: 'delete' })).map((e) => e.recordId),
        [String(first.id)],
      );
      assert.equal((await protocol({ user: 'jonas', recordType: 'vendor' })).length, 2);

      const today = localDay(new Date(), t.config.timeZone);
      assert.equal(
        (await protocol({ from: today, to: today })).length,
        4,
        'a bare date as "to" includes that whole local day',
      );
      assert.equal((await protocol({ to: '2000-01-01' })).length, 0);
      assert.equal((await protocol({ from: new Date(Date.now() + 3_600_000).toISOString() })).length, 0);
      const oldest = all[all.length - 1];
      assert.deepEqual(await protocol({ to: oldest.at }), [], 'a full time as "to" is exclusive');
      const justAfter = new Date(Date.parse(oldest.at) + 1).toISOString();
      assert.deepEqual(
        (await protocol({ from: oldest.at, to: justAfter })).map((e) => e.id),
        [oldest.id],
        'and as "from" inclusive',
      );
    });

    it('refuses unreadable filters with a message', async () => {
      for (const filter of [{ from: 'yesterday' }, { to: '2024-13-45' }, { user: ['a'] }, { colour: 'red' }]) {
        const res = await t.http
          .get(`/api/protocol/?filter=${encodeURIComponent(JSON.stringify(filter))}`)
          .set('Authorization', office);
        assert.equal(res.status, 400, `${JSON.stringify(filter)} gave ${res.status}`);
        assert.ok(res.body.message, JSON.stringify(filter));
      }
    });

    it('is for the back office only', async () => {
      assert.equal((await t.http.get('/api/protocol/')).status, 401);
      assert.equal((await t.http.get('/api/protocol/').set('Authorization', await t.auth(['vendor']))).status, 403);
    });
  });

  describe('system events and secrets', () => {
    it('stores system events with secret-looking values redacted at any depth', async () => {
      await recordEvent(t.db, {
        action: 'login.failed',
        actor: 'office',
        details: {
          ip: '203.0.113.9',
          password: 'hunter2',
          attempt: { accessToken: 'eyJabc', Cookie: 'sid=1' },
          headers: [{ authorization: 'Bearer x' }],
        },
      });
      const [event] = await protocol({ action: 'login.failed', user: 'office' });
      assert.equal(event.username, 'office');
      assert.equal(event.userSub, null);
      assert.deepEqual(event.details, {
        ip: '203.0.113.9',
        password: '[redacted]',
        attempt: { accessToken: '[redacted]', Cookie: '[redacted]' },
        headers: [{ authorization: '[redacted]' }],
      });
    });

    it("never stores the caller's token or a one-time password from an answer", async () => {
      const created = await t.http
        .post('/api/vendors')
        .set('Authorization', maria)
        .send({ licenseId: `PR-${++counter}`, firstName: 'Otto' });
      assert.equal(created.status, 201);
      const stored = JSON.stringify(await t.db('protocol_entries').select('*'));
      assert.ok(!stored.includes(maria.slice('Bearer '.length)), 'the access token is not stored');
      assert.ok(!stored.includes(maria.split('.')[2]), 'no part of the token signature is stored');
      const oneTimePassword = created.body.login?.oneTimePassword;
      if (oneTimePassword) assert.ok(!stored.includes(oneTimePassword), 'the one-time password is not stored');
      assert.doesNotMatch(stored, /password_hash|passwordHash|scrypt\$/i);
    });
  });

  describe('routes of other domains', () => {
    // Routes of later features: one without a protocol declaration, one whose change fails halfway.
    const extraRoutes: RouteDef[] = [
      {
        method: 'POST',
        path: '/api/test/ping',
        access: 'backoffice',
        handler: (ctx) => void (ctx.body = { ok: true }),
      },
      {
        method: 'PUT',
        path: '/api/test/half/:id',
        access: 'backoffice',
        protocol: {
          recordType: 'vendor',
          id: (ctx) => Number(ctx.params.id),
          load: async (ctx, id) => ctx.db('vendors').where({ id }).first('last_name'),
        },
        handler: async (ctx) => {
          await ctx
            .db('vendors')
            .where({ id: Number(ctx.params.id) })
            .update({ last_name: 'Halb' });
          throw new Error('the second half failed');
        },
      },
    ];
    let http: supertest.Agent;
    before(() => {
      http = supertest
        .agent(buildApp({ db: t.db, config: t.config, routes: extraRoutes }).callback())
        .set('Accept-Language', 'en');
    });

    it('records a change through a route without a protocol declaration as the bare request', async () => {
      assert.equal((await http.post('/api/test/ping/').set('Authorization', maria)).status, 200);
      const [entry] = await protocol({ user: 'maria' });
      assert.equal(entry.action, 'POST /api/test/ping');
      assert.equal(entry.recordType, null);
      assert.deepEqual(entry.details, { path: '/api/test/ping' });
    });

    it('keeps neither the change nor an entry when the request fails halfway', async () => {
      const vendor = await createVendor();
      const before = await protocol();
      assert.equal((await http.put(`/api/test/half/${vendor.id}`).set('Authorization', maria)).status, 500);
      assert.equal((await t.http.get(`/api/vendors/${vendor.id}`).set('Authorization', office)).body.lastName, 'Alt');
      assert.deepEqual(await protocol(), before);
    });
  });
});
