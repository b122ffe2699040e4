import assert from 'node:assert/strict';
import { assertRefused } from '../support/assertions.ts';
import { describeApi } from '../support/env.ts';

const isoTime = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

describeApi('vendor comments', (t) => {
  let office: string;
  let counter = 0;

  before(async () => {
    office = await t.office();
  });

  async function createVendor(): Promise<number> {
    const res = await t.http
      .post('/api/vendors')
      .set('Authorization', office)
      .send({ licenseId: `VC-${++counter}`, firstName: 'Carl' });
    assert.equal(res.status, 201, JSON.stringify(res.body));
    return res.body.id;
  }
  const list = (vendorId: number | string) =>
    t.http.get(`/api/vendors/${vendorId}/comments/`).set('Authorization', office);
  const post = (vendorId: number | string, body: unknown) =>
    t.http
      .post(`/api/vendors/${vendorId}/comments`)
      .set('Authorization', office)
      .send(body as object);
  const patch = (vendorId: number | string, id: number | string, body: unknown) =>
    t.http
      .patch(`/api/vendors/${vendorId}/comments/${id}`)
      .set('Authorization', office)
      .send(body as object);
  const remove = (vendorId: number | string, id: number | string) =>
    t.http.delete(`/api/vendors/${vendorId}/comments/${id}`).set('Authorization', office);

  it('answers an empty list for a vendor without comments', async () => {
    const res = await list(await createVendor());
    assert.equal(res.status, 200);
    assert.deepEqual(res.body, []);
  });

  it('adds comments and lists the newest first', async () => {
    const vendorId = await createVendor();
    const first = await post(vendorId, { comment: 'Badge renewed.' });
    assert.equal(first.status, 201, JSON.stringify(first.body));
    assert.deepEqual(first.body, {
      id: first.body.id,
      vendorId,
      comment: 'Badge renewed.',
      warning: false,
      createdAt: first.body.createdAt,
      resolvedAt: null,
    });
    assert.match(first.body.createdAt, isoTime);
    const second = await post(vendorId, { comment: 'Owes 20 € for papers.', warning: true });
    assert.equal(second.body.warning, true);
    const listed = (await list(vendorId)).body as { id: number; createdBy: string | null }[];
    assert.deepEqual(
      listed.map((c) => [c.id, c.createdBy]),
      [
        [second.body.id, 'office'],
        [first.body.id, 'office'],
      ],
      'newest first, each with who wrote it',
    );
  });

  it('resolves and reopens a comment, and edits its text and warning', async () => {
    const vendorId = await createVendor();
    const { id } = (await post(vendorId, { comment: 'Lost badge', warning: true })).body;

    const resolved = await patch(vendorId, id, { resolved: true });
    assert.equal(resolved.status, 200);
    assert.match(resolved.body.resolvedAt, isoTime);
    assert.ok(resolved.body.resolvedAt >= resolved.body.createdAt);
    const again = await patch(vendorId, id, { resolved: true });
    assert.equal(again.body.resolvedAt, resolved.body.resolvedAt, 'resolving twice keeps the first moment');

    const reopened = await patch(vendorId, id, { resolved: false });
    assert.equal(reopened.body.resolvedAt, null);

    const edited = await patch(vendorId, id, { comment: 'Badge found again', warning: false });
    assert.equal(edited.body.comment, 'Badge found again');
    assert.equal(edited.body.warning, false);
    assert.equal(edited.body.createdBy, 'office', 'a change keeps naming who wrote it');
    assert.deepEqual((await list(vendorId)).body, [edited.body]);

    const removed = await remove(vendorId, id);
    assert.equal(removed.status, 200);
    assert.equal(removed.body.id, id);
    assert.deepEqual((await list(vendorId)).body, []);
    assertRefused(await remove(vendorId, id), 404);
  });

  it('refuses missing and wrongly typed fields', async () => {
    const vendorId = await createVendor();
    assertRefused(await post(vendorId, {}), 400, 'comment');
    assertRefused(await post(vendorId, { comment: '   ' }), 400, 'comment');
    assertRefused(await post(vendorId, { comment: 42 }), 400, 'comment');
    assertRefused(await post(vendorId, { comment: 'x'.repeat(5001) }), 400, 'comment');
    assertRefused(await post(vendorId, { comment: 'Fine', warning: 'yes' }), 400, 'warning');
    const { id } = (await post(vendorId, { comment: 'Kept' })).body;
    assertRefused(await patch(vendorId, id, { resolved: 'yes' }), 400, 'resolved');
    assertRefused(await patch(vendorId, id, { comment: '' }), 400, 'comment');
    assertRefused(await patch(vendorId, id, ['resolved']), 400);
    const [kept] = (await list(vendorId)).body;
    assert.equal(kept.comment, 'Kept');
    assert.equal(kept.resolvedAt, null);
  });

  it('refuses bodies that are not JSON', async () => {
    const vendorId = await createVendor();
    const broken = await t.http
      .post(`/api/vendors/${vendorId}/comments`)
      .set('Authorization', office)
      .set('Content-Type', 'application/json')
      .send('{"comment":');
    assertRefused(broken, 400);
    const text = await t.http
      .post(`/api/vendors/${vendorId}/comments`)
      .set('Authorization', office)
      .set('Content-Type', 'text/plain')
      .send('hello');
    assertRefused(text, 415);
  });

  it('keeps comments to their vendor and hides those of deleted vendors', async () => {
    const owner = await createVendor();
    const other = await createVendor();
    const { id } = (await post(owner, { comment: 'Private note' })).body;
    assertRefused(await patch(other, id, { comment: 'Changed' }), 404);
    assertRefused(await remove(other, id), 404);

    await t.http.delete(`/api/vendors/${owner}`).set('Authorization', office).expect(200);
    assertRefused(await list(owner), 404);
    assertRefused(await post(owner, { comment: 'After' }), 404);
    assertRefused(await patch(owner, id, { resolved: true }), 404);
  });

  it('answers unknown and malformed ids with 404 and 400', async () => {
    const vendorId = await createVendor();
    assertRefused(await list(999999), 404);
    assertRefused(await list('abc'), 400);
    assertRefused(await patch(vendorId, 999999, { resolved: true }), 404);
    assertRefused(await patch(vendorId, 'abc', { resolved: true }), 400);
    assertRefused(await remove(vendorId, 'abc'), 400);
  });

  it('is only for the back office', async () => {
    const vendorId = await createVendor();
    assertRefused(await t.http.get(`/api/vendors/${vendorId}/comments`), 401);
    assertRefused(await post(vendorId, { comment: 'x' }).set('Authorization', await t.auth(['vendor'])), 403);
  });
});
