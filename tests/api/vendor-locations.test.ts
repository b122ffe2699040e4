import assert from 'node:assert/strict';
import { assertRefused } from '../support/assertions.ts';
import { describeApi } from '../support/env.ts';

describeApi('vendor locations', (t) => {
  let office: string;
  let counter = 0;

  before(async () => {
    office = await t.office();
  });

  async function createVendor(): Promise<number> {
    const res = await t.http
      .post('/api/vendors')
      .set('Authorization', office)
      .send({ licenseId: `VL-${++counter}`, firstName: 'Lena' });
    assert.equal(res.status, 201, JSON.stringify(res.body));
    return res.body.id;
  }
  const list = (vendorId: number | string) =>
    t.http.get(`/api/vendors/${vendorId}/locations/`).set('Authorization', office);
  const post = (vendorId: number | string, body: unknown) =>
    t.http
      .post(`/api/vendors/${vendorId}/locations`)
      .set('Authorization', office)
      .send(body as object);
  const patch = (vendorId: number | string, id: number | string, body: unknown) =>
    t.http
      .patch(`/api/vendors/${vendorId}/locations/${id}`)
      .set('Authorization', office)
      .send(body as object);
  const remove = (vendorId: number | string, id: number | string) =>
    t.http.delete(`/api/vendors/${vendorId}/locations/${id}`).set('Authorization', office);

  const weekly = {
    kind: 'weekly',
    ranges: [
      { day: 'mon', from: '07:00', to: '11:30' },
      { day: 'mon', from: '15:00', to: '18:00' },
      { day: 'sat', from: '09:00', to: '24:00' },
    ],
  };

  it('answers an empty list for a vendor without locations', async () => {
    const res = await list(await createVendor());
    assert.equal(res.status, 200);
    assert.deepEqual(res.body, []);
  });

  it('adds, lists, changes and removes locations', async () => {
    const vendorId = await createVendor();
    const created = await post(vendorId, {
      name: 'Billa Praterstraße',
      address: 'Praterstraße 12',
      postCode: '1020',
      latitude: 48.2167,
      longitude: 16.3856,
      workingTime: weekly,
    });
    assert.equal(created.status, 201, JSON.stringify(created.body));
    assert.deepEqual(created.body, {
      id: created.body.id,
      vendorId,
      name: 'Billa Praterstraße',
      address: 'Praterstraße 12',
      postCode: '1020',
      latitude: 48.2167,
      longitude: 16.3856,
      workingTime: weekly,
      createdAt: created.body.createdAt,
    });
    assert.ok(Date.parse(created.body.createdAt) > Date.now() - 60_000, 'added just now');
    const plain = await post(vendorId, { name: 'Church' });
    assert.equal(plain.status, 201);
    assert.deepEqual(plain.body.workingTime, { kind: 'allDay' }, 'all day unless said otherwise');
    assert.equal(plain.body.latitude, null);

    const listed = await list(vendorId);
    // The list names who added each, as the protocol recorded it.
    assert.deepEqual(
      listed.body,
      [created.body, plain.body].map((location) => ({ ...location, createdBy: 'office' })),
    );

    const renamed = await patch(vendorId, created.body.id, { name: 'Spar Praterstraße' });
    assert.equal(renamed.status, 200);
    assert.equal(renamed.body.name, 'Spar Praterstraße');
    assert.deepEqual(renamed.body.workingTime, weekly, 'fields left out stay as they were');
    assert.equal(renamed.body.latitude, 48.2167);

    const mornings = await patch(vendorId, created.body.id, { workingTime: { kind: 'mornings' }, latitude: null });
    assert.deepEqual(mornings.body.workingTime, { kind: 'mornings' });
    assert.equal(mornings.body.latitude, null);

    const removed = await remove(vendorId, created.body.id);
    assert.equal(removed.status, 200);
    assert.equal(removed.body.id, created.body.id);
    assert.deepEqual(
      (await list(vendorId)).body.map((l: { id: number }) => l.id),
      [plain.body.id],
    );
    assertRefused(await remove(vendorId, created.body.id), 404);
  });

  it('refuses missing and wrongly typed fields', async () => {
    const vendorId = await createVendor();
    assertRefused(await post(vendorId, {}), 400, 'name');
    assertRefused(await post(vendorId, { name: '  ' }), 400, 'name');
    assertRefused(await post(vendorId, { name: 42 }), 400, 'name');
    assertRefused(await post(vendorId, { name: 'X', latitude: 'north' }), 400, 'latitude');
    assertRefused(await post(vendorId, { name: 'X', longitude: 200 }), 400, 'longitude');
    assertRefused(await post(vendorId, { name: 'X', postCode: 1020 }), 400, 'postCode');
    const notAnObject = await t.http
      .post(`/api/vendors/${vendorId}/locations`)
      .set('Authorization', office)
      .set('Content-Type', 'application/json')
      .send('"Billa"');
    assertRefused(notAnObject, 400);
    const { id } = (await post(vendorId, { name: 'Kept' })).body;
    assertRefused(await patch(vendorId, id, { name: null }), 400, 'name');
    assertRefused(await patch(vendorId, id, { latitude: 'north' }), 400, 'latitude');
    assert.equal((await list(vendorId)).body[0].name, 'Kept');
  });

  it('refuses working times that are not one of the known kinds or not real times', async () => {
    const vendorId = await createVendor();
    const cases: [unknown, string][] = [
      ['allDay', 'workingTime'],
      [{ kind: 'sometimes' }, 'workingTime.kind'],
      [{ kind: 'weekly' }, 'workingTime.ranges'],
      [{ kind: 'weekly', ranges: [] }, 'workingTime.ranges'],
      [{ kind: 'weekly', ranges: [{ day: 'funday', from: '08:00', to: '10:00' }] }, 'workingTime.ranges.0.day'],
      [{ kind: 'weekly', ranges: [{ day: 'mon', from: '25:00', to: '26:00' }] }, 'workingTime.ranges.0.from'],
      [{ kind: 'weekly', ranges: [{ day: 'mon', from: '8:00', to: '10:00' }] }, 'workingTime.ranges.0.from'],
      [{ kind: 'weekly', ranges: [{ day: 'mon', from: '10:00', to: '09:59' }] }, 'workingTime.ranges.0.to'],
      [{ kind: 'weekly', ranges: [{ day: 'mon', from: '10:00', to: '10:00' }] }, 'workingTime.ranges.0.to'],
      [
        {
          kind: 'weekly',
          ranges: [
            { day: 'tue', from: '08:00', to: '12:00' },
            { day: 'tue', from: '11:00', to: '13:00' },
          ],
        },
        'workingTime.ranges.1',
      ],
    ];
    for (const [workingTime, field] of cases) {
      assertRefused(await post(vendorId, { name: 'Times', workingTime }), 400, field);
    }
    assert.deepEqual((await list(vendorId)).body, []);
  });

  it('refuses bodies that are not JSON', async () => {
    const vendorId = await createVendor();
    const broken = await t.http
      .post(`/api/vendors/${vendorId}/locations`)
      .set('Authorization', office)
      .set('Content-Type', 'application/json')
      .send('{"name"');
    assertRefused(broken, 400);
    const text = await t.http
      .post(`/api/vendors/${vendorId}/locations`)
      .set('Authorization', office)
      .set('Content-Type', 'text/plain')
      .send('name=x');
    assertRefused(text, 415);
  });

  it('keeps locations to their vendor and hides those of deleted vendors', async () => {
    const owner = await createVendor();
    const other = await createVendor();
    const { id } = (await post(owner, { name: 'Mine' })).body;
    assertRefused(await patch(other, id, { name: 'Stolen' }), 404);
    assertRefused(await remove(other, id), 404);
    assert.equal((await list(owner)).body[0].name, 'Mine');

    await t.http.delete(`/api/vendors/${owner}`).set('Authorization', office).expect(200);
    assertRefused(await list(owner), 404);
    assertRefused(await post(owner, { name: 'After' }), 404);
    assertRefused(await patch(owner, id, { name: 'After' }), 404);
    assertRefused(await remove(owner, id), 404);
  });

  it('answers unknown and malformed ids with 404 and 400', async () => {
    const vendorId = await createVendor();
    assertRefused(await list(999999), 404);
    assertRefused(await post(999999, { name: 'X' }), 404);
    assertRefused(await list('abc'), 400);
    assertRefused(await patch(vendorId, 999999, { name: 'X' }), 404);
    assertRefused(await patch(vendorId, 'abc', { name: 'X' }), 400);
    assertRefused(await remove(vendorId, 'abc'), 400);
  });

  it('is only for the back office', async () => {
    const vendorId = await createVendor();
    assertRefused(await t.http.get(`/api/vendors/${vendorId}/locations`), 401);
    assertRefused(
      await t.http.get(`/api/vendors/${vendorId}/locations`).set('Authorization', await t.auth(['vendor'])),
      403,
    );
  });
});
