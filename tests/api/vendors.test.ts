import assert from 'node:assert/strict';
import { assertRefused } from '../support/assertions.ts';
import { describeApi } from '../support/env.ts';

/** A refusal a person can read: the expected status, a message, never a server fault. */

describeApi('vendors', (t) => {
  let office: string;
  let counter = 0;
  /** Licence ids of our own, never the seed's DEMO-*. */
  const nextLicense = () => `VT-${++counter}`;

  before(async () => {
    office = await t.office();
  });

  const post = (body: unknown) =>
    t.http
      .post('/api/vendors')
      .set('Authorization', office)
      .send(body as object);
  const get = (path: string) => t.http.get(path).set('Authorization', office);
  async function createVendor(fields: Record<string, unknown> = {}) {
    const res = await post({ licenseId: nextLicense(), firstName: 'Vera', ...fields });
    assert.equal(res.status, 201, JSON.stringify(res.body));
    return res.body;
  }
  async function withSettings(changes: Record<string, unknown>, run: () => Promise<void>) {
    const before = await t.db('settings').where({ id: 1 }).first();
    await t.db('settings').where({ id: 1 }).update(changes);
    try {
      await run();
    } finally {
      await t
        .db('settings')
        .where({ id: 1 })
        .update(Object.fromEntries(Object.keys(changes).map((k) => [k, before[k]])));
    }
  }

  describe('create and read', () => {
    it('creates a vendor with every field and reads it back', async () => {
      const licenseId = nextLicense();
      const body = {
        licenseId,
        firstName: 'Anna',
        lastName: 'Huber',
        email: 'anna.huber@example.org',
        language: 'en',
        telephone: '+43 660 1234567',
        address: 'Praterstraße 1',
        postCode: '1020',
        location: 'Praterstern',
        longitude: 16.3913,
        latitude: 48.2185,
        workingTime: 'Mo–Fr mornings',
        registrationDate: '2024-01-31',
        vendorSince: '2019-12-01',
        hasBankAccount: true,
        hasSmartphone: false,
        onlineMap: true,
        accountProofUrl: 'https://example.org/proof/anna',
        debt: '20 € for badges',
        isDisabled: false,
      };
      const created = await post(body);
      assert.equal(created.status, 201, JSON.stringify(created.body));
      assert.ok(Number.isInteger(created.body.id));
      // The vendor's login comes with the creation only (tests/api/login.test.ts).
      const { createdAt, updatedAt, id, login, credit, lastPayout, openPayments, openWarnings, ...rest } = created.body;
      assert.deepEqual(rest, body);
      assert.deepEqual(
        { credit, lastPayout, openPayments, openWarnings },
        { credit: 0, lastPayout: null, openPayments: 0, openWarnings: 0 },
        'no money has moved yet, no warning written',
      );
      assert.match(createdAt, /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
      assert.match(updatedAt, /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);

      const read = await get(`/api/vendors/${id}/`);
      assert.equal(read.status, 200);
      assert.deepEqual(read.body, {
        ...rest,
        id,
        createdAt,
        updatedAt,
        credit,
        lastPayout,
        openPayments,
        openWarnings,
      });
      assert.equal(login.username, licenseId);
    });

    it('fills the optional fields with empty values', async () => {
      const vendor = await createVendor({ email: 'min@example.org', lastName: null, registrationDate: '' });
      assert.equal(vendor.lastName, '');
      assert.equal(vendor.registrationDate, null);
      assert.equal(vendor.latitude, null);
      assert.equal(vendor.accountProofUrl, null);
      assert.equal(vendor.hasSmartphone, false);
      assert.equal(vendor.isDisabled, false);
    });

    it('derives the e-mail from the licence id and the settings postfix, with or without its @', async () => {
      for (const postfix of ['@street.example', 'street.example']) {
        await withSettings({ vendor_email_postfix: postfix }, async () => {
          const licenseId = nextLicense();
          const vendor = await createVendor({ licenseId, email: '' });
          assert.equal(vendor.email, `${licenseId}@street.example`);
        });
      }
      await withSettings({ vendor_email_postfix: '' }, async () => {
        assert.equal((await createVendor()).email, null);
      });
      await withSettings({ vendor_email_postfix: '@street.example' }, async () => {
        assert.equal((await createVendor({ email: 'own@example.org' })).email, 'own@example.org');
      });
    });

    it('refuses an invalid e-mail address with the message of the specification', async () => {
      const res = await post({ licenseId: nextLicense(), firstName: 'Eva', email: 'not-an-address' });
      assertRefused(res, 400, 'email');
      assert.equal(res.body.errors.email, 'Please enter a valid email address.');
    });

    it('names every field of the wrong type', async () => {
      const res = await post({
        licenseId: nextLicense(),
        firstName: 42,
        latitude: 'north',
        hasSmartphone: 'yes',
        registrationDate: 20240101,
      });
      assertRefused(res, 400, 'firstName');
      for (const field of ['latitude', 'hasSmartphone', 'registrationDate']) assert.ok(res.body.errors[field], field);
    });

    it('names the missing required fields', async () => {
      const res = await post({ lastName: 'Only' });
      assertRefused(res, 400, 'licenseId');
      assert.ok(res.body.errors.firstName);
      assertRefused(await post({ licenseId: nextLicense(), firstName: '   ' }), 400, 'firstName');
    });

    it('refuses values outside their range or shape', async () => {
      const cases: [Record<string, unknown>, string][] = [
        [{ latitude: 91 }, 'latitude'],
        [{ longitude: -180.5 }, 'longitude'],
        [{ licenseId: 'has space' }, 'licenseId'],
        [{ licenseId: '-starts-with-dash' }, 'licenseId'],
        [{ licenseId: 'X'.repeat(41) }, 'licenseId'],
        [{ firstName: 'A'.repeat(101) }, 'firstName'],
        [{ postCode: '1'.repeat(21) }, 'postCode'],
        [{ registrationDate: '2023-02-29' }, 'registrationDate'],
        [{ vendorSince: '01.02.2020' }, 'vendorSince'],
        [{ accountProofUrl: 'javascript:alert(1)' }, 'accountProofUrl'],
        [{ accountProofUrl: 'ftp://example.org/x' }, 'accountProofUrl'],
        [{ debt: 5 }, 'debt'],
        [{ language: 'Deutsch' }, 'language'],
        [{ language: 'fr' }, 'language'],
        [{ language: ['de'] }, 'language'],
      ];
      for (const [fields, field] of cases) {
        assertRefused(await post({ licenseId: nextLicense(), firstName: 'Range', ...fields }), 400, field);
      }
    });

    it('takes the language as a choice of de and en, German when none is given', async () => {
      assert.equal((await createVendor({ language: ' EN ' })).language, 'en');
      assert.equal((await createVendor({ language: 'de' })).language, 'de');
      assert.equal((await createVendor({ language: '' })).language, 'de');
      assert.equal((await createVendor()).language, 'de');
      const res = await post({ licenseId: nextLicense(), firstName: 'Lang', language: 'Englisch' });
      assertRefused(res, 400, 'language');
      assert.equal(res.body.errors.language, 'Please choose the language de or en.');
    });

    it('refuses a body that is not a JSON object, or not JSON at all', async () => {
      assertRefused(await post([{ licenseId: nextLicense(), firstName: 'Arr' }]), 400);
      const broken = await t.http
        .post('/api/vendors')
        .set('Authorization', office)
        .set('Content-Type', 'application/json')
        .send('{"licenseId": ');
      assertRefused(broken, 400);
      const text = await t.http
        .post('/api/vendors')
        .set('Authorization', office)
        .set('Content-Type', 'text/plain')
        .send('licenseId=X');
      assertRefused(text, 415);
    });

    it('refuses a licence id that is already taken, also in other letter case', async () => {
      const licenseId = `vt-dup-${++counter}`;
      await createVendor({ licenseId: licenseId.toUpperCase() });
      for (const attempt of [licenseId.toUpperCase(), licenseId]) {
        const res = await post({ licenseId: attempt, firstName: 'Second' });
        assertRefused(res, 409, 'licenseId');
        assert.ok(res.body.message.includes(attempt), res.body.message);
      }
    });

    it('answers malformed and unknown ids with 400 and 404', async () => {
      assertRefused(await get('/api/vendors/abc'), 400);
      assertRefused(await get('/api/vendors/1.5'), 400);
      assertRefused(await get('/api/vendors/999999'), 404);
    });

    it('is only for the back office', async () => {
      assertRefused(await t.http.get('/api/vendors'), 401);
      assertRefused(await t.http.post('/api/vendors').send({ licenseId: nextLicense(), firstName: 'X' }), 401);
      assertRefused(await t.http.get('/api/vendors').set('Authorization', await t.auth(['vendor'])), 403);
    });
  });

  describe('update', () => {
    it('replaces the record with what react-admin sends back', async () => {
      const vendor = await createVendor({ lastName: 'Before', hasBankAccount: false });
      const res = await t.http
        .put(`/api/vendors/${vendor.id}`)
        .set('Authorization', office)
        .send({ ...vendor, lastName: 'After', hasBankAccount: true, vendorSince: '2020-02-29', isDisabled: true });
      assert.equal(res.status, 200, JSON.stringify(res.body));
      assert.equal(res.body.lastName, 'After');
      assert.equal(res.body.hasBankAccount, true);
      assert.equal(res.body.vendorSince, '2020-02-29');
      assert.equal(res.body.isDisabled, true);
      assert.equal((await get(`/api/vendors/${vendor.id}`)).body.lastName, 'After');
    });

    it('refuses an id in the body that differs from the address', async () => {
      const vendor = await createVendor();
      const res = await t.http
        .put(`/api/vendors/${vendor.id}`)
        .set('Authorization', office)
        .send({ ...vendor, id: vendor.id + 1 });
      assertRefused(res, 400, 'id');
    });

    it('refuses invalid fields, a taken licence id, unknown and malformed ids', async () => {
      const taken = await createVendor();
      const vendor = await createVendor();
      const put = (id: unknown, body: object) =>
        t.http
          .put(`/api/vendors/${String(id)}`)
          .set('Authorization', office)
          .send(body);
      assertRefused(await put(vendor.id, { ...vendor, email: 'nope@' }), 400, 'email');
      assertRefused(await put(vendor.id, { ...vendor, firstName: undefined }), 400, 'firstName');
      assertRefused(await put(vendor.id, { ...vendor, licenseId: taken.licenseId.toLowerCase() }), 409, 'licenseId');
      assertRefused(await put(999999, { ...vendor, id: undefined }), 404);
      assertRefused(await put('abc', { ...vendor, id: undefined }), 400);
      const text = await t.http
        .put(`/api/vendors/${vendor.id}`)
        .set('Authorization', office)
        .set('Content-Type', 'text/plain')
        .send('x');
      assertRefused(text, 415);
    });
  });

  describe('deactivate (PATCH, the bulk action of the list)', () => {
    const patch = (id: number | string, body: unknown) =>
      t.http
        .patch(`/api/vendors/${id}`)
        .set('Authorization', office)
        .send(body as object);

    it('deactivates and reactivates only that flag, with the login, and protocols the change', async () => {
      const vendor = await createVendor({ lastName: 'Patched', telephone: '+43 1 234' });
      const off = await patch(vendor.id, { isDisabled: true, firstName: 'Ignored' });
      assert.equal(off.status, 200, JSON.stringify(off.body));
      assert.equal(off.body.isDisabled, true);
      assert.equal(off.body.firstName, 'Vera');
      assert.equal(off.body.telephone, '+43 1 234');
      assert.equal((await t.db('accounts').where({ vendor_id: vendor.id }).first()).disabled, true);
      const entry = await t
        .db('protocol_entries')
        .where({ record_type: 'vendor', record_id: String(vendor.id) })
        .orderBy('id', 'desc')
        .first();
      assert.deepEqual(Object.keys(typeof entry.changes === 'string' ? JSON.parse(entry.changes) : entry.changes), [
        'isDisabled',
      ]);
      const on = await patch(vendor.id, { isDisabled: false });
      assert.equal(on.body.isDisabled, false);
      assert.equal((await t.db('accounts').where({ vendor_id: vendor.id }).first()).disabled, false);
    });

    it('refuses anything but true or false, a foreign id in the body, unknown ids, and callers outside the office', async () => {
      const vendor = await createVendor();
      for (const body of [{}, { isDisabled: 'yes' }, { isDisabled: null }, [true], { __proto__: { isDisabled: true } }])
        assertRefused(await patch(vendor.id, body), 400);
      assertRefused(await patch(vendor.id, { id: vendor.id + 1, isDisabled: true }), 400, 'id');
      assertRefused(await patch(999999, { isDisabled: true }), 404);
      assertRefused(await patch('x', { isDisabled: true }), 400);
      assert.equal((await t.http.patch(`/api/vendors/${vendor.id}`).send({ isDisabled: true })).status, 401);
      assert.equal((await get(`/api/vendors/${vendor.id}`)).body.isDisabled, false);
    });
  });

  describe('delete', () => {
    it('soft-deletes: answers the record, then the vendor is gone everywhere but kept in the database', async () => {
      const vendor = await createVendor();
      const res = await t.http.delete(`/api/vendors/${vendor.id}`).set('Authorization', office);
      assert.equal(res.status, 200);
      assert.equal(res.body.id, vendor.id);
      assert.equal(res.body.licenseId, vendor.licenseId);

      assertRefused(await get(`/api/vendors/${vendor.id}`), 404);
      const list = await get(`/api/vendors?filter=${encodeURIComponent(JSON.stringify({ id: [vendor.id] }))}`);
      assert.deepEqual(list.body, []);
      assertRefused(await t.http.delete(`/api/vendors/${vendor.id}`).set('Authorization', office), 404);
      assertRefused(await t.http.put(`/api/vendors/${vendor.id}`).set('Authorization', office).send(vendor), 404);
      const row = await t.db('vendors').where({ id: vendor.id }).first();
      assert.ok(row.deleted_at, 'the row is kept with deleted_at set');
    });

    it('frees the licence id for a new vendor', async () => {
      const vendor = await createVendor();
      await t.http.delete(`/api/vendors/${vendor.id}`).set('Authorization', office).expect(200);
      const again = await post({ licenseId: vendor.licenseId.toLowerCase(), firstName: 'Successor' });
      assert.equal(again.status, 201, JSON.stringify(again.body));
      assert.notEqual(again.body.id, vendor.id);
    });

    it('answers malformed and unknown ids with 400 and 404', async () => {
      assertRefused(await t.http.delete('/api/vendors/abc').set('Authorization', office), 400);
      assertRefused(await t.http.delete('/api/vendors/999999').set('Authorization', office), 404);
    });
  });

  describe('list', () => {
    const list = (params: Record<string, unknown>) =>
      get(`/api/vendors?${new URLSearchParams(Object.entries(params).map(([k, v]) => [k, JSON.stringify(v)]))}`);
    let team: { id: number; lastName: string }[];

    before(async () => {
      // Mixed letter case: the order must follow the letters, not upper before lower.
      team = [];
      for (const lastName of ['gamma', 'Alpha', 'beta'])
        team.push(await createVendor({ firstName: 'Listmarker', lastName }));
    });

    it('sorts by last name both ways', async () => {
      const asc = await list({ filter: { q: 'listmarker' }, sort: ['lastName', 'ASC'] });
      assert.equal(asc.status, 200);
      assert.deepEqual(
        asc.body.map((v: { lastName: string }) => v.lastName),
        ['Alpha', 'beta', 'gamma'],
      );
      const desc = await list({ filter: { q: 'listmarker' }, sort: ['lastName', 'DESC'] });
      assert.deepEqual(
        desc.body.map((v: { lastName: string }) => v.lastName),
        ['gamma', 'beta', 'Alpha'],
      );
    });

    it('sorts licence ids as people count them, the number after the text', async () => {
      for (const licenseId of ['NAT-10', 'nat-2', 'NAT-1', 'NAT-B', 'NAT-A7', 'NAT-100'])
        await createVendor({ licenseId, firstName: 'Natsort' });
      const ids = async (order: string) =>
        (await list({ filter: { q: 'natsort' }, sort: ['licenseId', order] })).body.map(
          (v: { licenseId: string }) => v.licenseId,
        );
      const ascending = ['NAT-1', 'nat-2', 'NAT-10', 'NAT-100', 'NAT-A7', 'NAT-B'];
      assert.deepEqual(await ids('ASC'), ascending);
      assert.deepEqual(await ids('DESC'), ascending.toReversed());
    });

    it('pages with range and tells the total in Content-Range', async () => {
      const [{ total }] = await t.db('vendors').whereNull('deleted_at').count({ total: '*' });
      const res = await list({ range: [0, 1], sort: ['id', 'ASC'] });
      assert.equal(res.status, 200);
      assert.equal(res.body.length, 2);
      assert.equal(res.headers['content-range'], `vendors 0-1/${total}`);
    });

    it('answers getMany with exactly the requested ids', async () => {
      const res = await list({ filter: { id: [team[0].id, team[2].id] } });
      assert.deepEqual(res.body.map((v: { id: number }) => v.id).sort(), [team[0].id, team[2].id].sort());
    });

    it('searches first and last name, licence id and e-mail, ignoring case', async () => {
      const vendor = await createVendor({ firstName: 'Quirin', lastName: 'Zwirbel', email: 'qz.search@example.org' });
      for (const q of ['QUIRIN', 'zwirb', vendor.licenseId.toLowerCase(), 'QZ.SEARCH', 'Quirin Zwirbel']) {
        const res = await list({ filter: { q } });
        assert.deepEqual(
          res.body.map((v: { id: number }) => v.id),
          [vendor.id],
          `search "${q}"`,
        );
      }
    });

    it('searches names and places without regard to accents', async () => {
      const zoe = await createVendor({
        firstName: 'Zoë',
        lastName: 'Øster-Ångström',
        location: 'Straße der Einheit',
      });
      for (const q of ['Zoe', 'ZOË', 'zoe oster', 'angstrom', 'ÅNGSTRÖM', 'strasse der einheit', 'STRASSE DER EINH']) {
        const res = await list({ filter: { q } });
        assert.deepEqual(
          res.body.map((v: { id: number }) => v.id),
          [zoe.id],
          `search "${q}"`,
        );
      }
      // Folding joins accents, it does not make every letter match: "Zoa" is someone else.
      assert.deepEqual((await list({ filter: { q: 'Zoa ' } })).body, []);
    });

    it('treats % and _ in the search as plain characters', async () => {
      const literal = await createVendor({ lastName: 'Wild_card' });
      await createVendor({ lastName: 'Wildxcard' });
      assert.deepEqual(
        (await list({ filter: { q: 'd_c' } })).body.map((v: { id: number }) => v.id),
        [literal.id],
      );
      assert.deepEqual((await list({ filter: { q: 'wild%card' } })).body, []);
    });

    it('filters by deactivation', async () => {
      const off = await createVendor({ firstName: 'Offmarker', isDisabled: true });
      const on = await createVendor({ firstName: 'Offmarker' });
      assert.deepEqual(
        (await list({ filter: { q: 'offmarker', isDisabled: true } })).body.map((v: { id: number }) => v.id),
        [off.id],
      );
      assert.deepEqual(
        (await list({ filter: { q: 'offmarker', isDisabled: false } })).body.map((v: { id: number }) => v.id),
        [on.id],
      );
    });

    it('counts the open warning comments of each vendor and filters by them', async () => {
      const warned = await createVendor({ firstName: 'Warnmarker' });
      const calm = await createVendor({ firstName: 'Warnmarker' });
      const comment = (vendorId: number, body: object) =>
        t.http.post(`/api/vendors/${vendorId}/comments`).set('Authorization', office).send(body);
      const open = await comment(warned.id, { comment: 'Badge lost twice', warning: true });
      const resolved = await comment(warned.id, { comment: 'Old warning', warning: true });
      await t.http
        .patch(`/api/vendors/${warned.id}/comments/${resolved.body.id}`)
        .set('Authorization', office)
        .send({ resolved: true });
      await comment(calm.id, { comment: 'Just a note', warning: false });
      assert.equal(open.status, 201, JSON.stringify(open.body));
      const listed = (await list({ filter: { q: 'warnmarker' }, sort: ['id', 'ASC'] })).body;
      assert.deepEqual(
        listed.map((v: { openWarnings: number }) => v.openWarnings),
        [1, 0],
      );
      assert.equal((await get(`/api/vendors/${warned.id}`)).body.openWarnings, 1);
      const only = await list({ filter: { q: 'warnmarker', hasWarning: true } });
      assert.deepEqual(
        only.body.map((v: { id: number }) => v.id),
        [warned.id],
      );
      assert.deepEqual(
        (await list({ filter: { q: 'warnmarker', hasWarning: false } })).body.map((v: { id: number }) => v.id),
        [calm.id],
      );
      assertRefused(await list({ filter: { hasWarning: 'yes' } }), 400);
    });

    it('refuses unknown sort fields and filters and malformed parameters', async () => {
      assertRefused(await list({ sort: ['password', 'ASC'] }), 400);
      assertRefused(await list({ filter: { salary: 1 } }), 400);
      assertRefused(await list({ filter: { isDisabled: 'maybe' } }), 400);
      assertRefused(await list({ filter: { q: 5 } }), 400);
      assertRefused(await get('/api/vendors?range=[0'), 400);
    });
  });

  describe('check by licence id (shop)', () => {
    const check = (licenseId: string) => t.http.get(`/api/vendors/check/${encodeURIComponent(licenseId)}/`);

    it('answers an active vendor with only what the shop shows, without a login', async () => {
      const vendor = await createVendor({
        firstName: 'Karla',
        lastName: 'Secret',
        address: 'Hidden 1',
        email: 'karla@example.org',
        accountProofUrl: 'https://example.org/k',
      });
      const res = await check(vendor.licenseId.toLowerCase());
      assert.equal(res.status, 200);
      assert.deepEqual(res.body, {
        licenseId: vendor.licenseId,
        displayName: 'Karla',
        accountProofUrl: 'https://example.org/k',
      });
    });

    it('shows the licence id instead of the name when the privacy setting is on', async () => {
      const vendor = await createVendor({ firstName: 'Privatina' });
      await withSettings({ use_vendor_license_id_in_shop: true }, async () => {
        const res = await check(vendor.licenseId);
        assert.equal(res.status, 200);
        assert.equal(res.body.displayName, vendor.licenseId);
        assert.ok(!res.text.includes('Privatina'), res.text);
      });
    });

    it('says "This ID is invalid" for unknown, deactivated and deleted vendors', async () => {
      const disabled = await createVendor({ isDisabled: true });
      const deleted = await createVendor();
      await t.http.delete(`/api/vendors/${deleted.id}`).set('Authorization', office).expect(200);
      for (const licenseId of ['NO-SUCH-VENDOR', disabled.licenseId, deleted.licenseId, 'bad id!']) {
        const res = await check(licenseId);
        assertRefused(res, 404);
        assert.deepEqual(res.body, { message: 'This ID is invalid' }, licenseId);
      }
    });
  });
});
