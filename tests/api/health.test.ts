import assert from 'node:assert/strict';
import { describeApi } from '../support/env.ts';

describeApi('health', (t) => {
  it('answers /healthz and /readyz with the database reachable', async () => {
    assert.equal((await t.http.get('/healthz')).status, 200);
    const ready = await t.http.get('/readyz/');
    assert.equal(ready.status, 200);
    assert.equal(ready.body.status, 'ready');
  });

  it('answers unknown API paths with a JSON 404 and a message', async () => {
    const res = await t.http.get('/api/nothing-here/');
    assert.equal(res.status, 404);
    assert.match(res.body.message, /no such/i);
  });
});
