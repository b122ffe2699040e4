import assert from 'node:assert/strict';
import { describeApi } from '../support/env.ts';

describeApi('map', (t) => {
  let office: string;
  let counter = 0;

  before(async () => {
    office = await t.office();
  });

  async function createVendor(fields: Record<string, unknown>): Promise<number> {
    const res = await t.http
      .post('/api/vendors')
      .set('Authorization', office)
      .send({ licenseId: `VM-${++counter}`, firstName: 'Mara', ...fields });
    assert.equal(res.status, 201, JSON.stringify(res.body));
    return res.body.id;
  }
  async function addLocation(vendorId: number, body: Record<string, unknown>) {
    const res = await t.http.post(`/api/vendors/${vendorId}/locations`).set('Authorization', office).send(body);
    assert.equal(res.status, 201, JSON.stringify(res.body));
    return res.body;
  }
  const getMap = () => t.http.get('/api/map/').set('Authorization', office);
  const onMap = (body: { vendors: { id: number }[] }, id: number) => body.vendors.find((v) => v.id === id);

  it('shows vendors who agreed to the map, with the locations that have coordinates', async () => {
    const shown = await createVendor({ lastName: 'Mapper', onlineMap: true });
    const located = await addLocation(shown, {
      name: 'Westbahnhof',
      address: 'Europaplatz 2',
      latitude: 48.1966,
      longitude: 16.3378,
      workingTime: { kind: 'weekly', ranges: [{ day: 'fri', from: '06:00', to: '10:00' }] },
    });
    await addLocation(shown, { name: 'Somewhere without coordinates', latitude: 48.2 });

    const res = await getMap();
    assert.equal(res.status, 200);
    const vendor = onMap(res.body, shown);
    assert.deepEqual(vendor, {
      id: shown,
      licenseId: `VM-${counter}`,
      firstName: 'Mara',
      lastName: 'Mapper',
      locations: [
        {
          id: located.id,
          name: 'Westbahnhof',
          address: 'Europaplatz 2',
          latitude: 48.1966,
          longitude: 16.3378,
          workingTime: { kind: 'weekly', ranges: [{ day: 'fri', from: '06:00', to: '10:00' }] },
        },
      ],
    });
  });

  it('leaves out vendors not on the map, deactivated and deleted ones', async () => {
    const location = { name: 'Corner', latitude: 48.21, longitude: 16.37 };
    const notOnMap = await createVendor({ onlineMap: false });
    const deactivated = await createVendor({ onlineMap: true, isDisabled: true });
    const deleted = await createVendor({ onlineMap: true });
    for (const id of [notOnMap, deactivated, deleted]) await addLocation(id, location);
    await t.http.delete(`/api/vendors/${deleted}`).set('Authorization', office).expect(200);

    const res = await getMap();
    assert.equal(res.status, 200);
    for (const id of [notOnMap, deactivated, deleted]) assert.equal(onMap(res.body, id), undefined, `vendor ${id}`);
  });

  it('centres the map where the settings say', async () => {
    const before = await t.db('settings').where({ id: 1 }).first('map_center_lat', 'map_center_long');
    await t.db('settings').where({ id: 1 }).update({ map_center_lat: 47.0707, map_center_long: 15.4395 });
    try {
      const res = await getMap();
      assert.deepEqual(res.body.center, { lat: 47.0707, long: 15.4395 });
    } finally {
      await t.db('settings').where({ id: 1 }).update(before);
    }
  });

  it('is only for the back office', async () => {
    const anonymous = await t.http.get('/api/map');
    assert.equal(anonymous.status, 401);
    assert.ok(anonymous.body.message);
    const vendor = await t.http.get('/api/map').set('Authorization', await t.auth(['vendor']));
    assert.equal(vendor.status, 403);
    assert.ok(vendor.body.message);
  });
});
