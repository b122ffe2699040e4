import assert from 'node:assert/strict';
import { describeApi } from '../support/env.ts';
import { capturedLog } from '../support/log.ts';

describeApi('HTTP contract', (t) => {
  const origin = 'http://shop.test'; // PUBLIC_URL of the test configuration

  it('lets the own origin read Content-Range across origins and allows the preflight', async () => {
    const preflight = await t.http
      .options('/api/vendors/')
      .set('Origin', origin)
      .set('Access-Control-Request-Method', 'GET')
      .set('Access-Control-Request-Headers', 'authorization,range');
    assert.equal(preflight.status, 204);
    assert.equal(preflight.headers['access-control-allow-origin'], origin);
    assert.match(preflight.headers['access-control-allow-headers'], /Authorization/);
    assert.match(preflight.headers['access-control-allow-headers'], /Range/);

    const list = await t.http
      .get('/api/vendors/?range=[0,4]')
      .set('Origin', origin)
      .set('Authorization', await t.office());
    assert.equal(list.status, 200);
    assert.match(list.headers['access-control-expose-headers'], /Content-Range/);
    assert.match(list.headers['content-range'], /^vendors 0-4\/\d+$/);
  });

  it('matches origins exactly, so look-alike hosts get no CORS grant', async () => {
    for (const evil of ['http://shop.test.evil.com', 'http://evil-shop.test', 'https://shop.test', 'null']) {
      const res = await t.http.get('/api/settings/').set('Origin', evil);
      assert.equal(res.headers['access-control-allow-origin'], undefined, evil);
    }
  });

  it('gives every response a request id and never a stack trace', async () => {
    const res = await t.http.get('/api/vendors/abc/').set('Authorization', await t.office());
    assert.ok(res.status >= 400 && res.status < 500);
    assert.match(res.headers['x-request-id'], /^[0-9a-f-]{36}$/);
    assert.doesNotMatch(JSON.stringify(res.body), /at .*\.ts:\d+/);
  });

  it('answers a wrong method on an existing path with 405 and a message', async () => {
    const res = await t.http.patch('/api/settings/').set('Authorization', await t.office());
    assert.equal(res.status, 405);
    assert.ok(res.body.message);
  });

  it('refuses list parameters it does not understand with a message', async () => {
    const office = await t.office();
    for (const query of [
      'sort=["nope","ASC"]',
      'range=[5,1]',
      'range=[0,100000]',
      'filter=[1]',
      'sort=notjson',
      'filter={"nope":1}',
    ]) {
      const res = await t.http.get(`/api/vendors/?${query}`).set('Authorization', office);
      assert.equal(res.status, 400, query);
      assert.ok(res.body.message, query);
    }
  });

  // Found by the fuzz test: PostgreSQL's text cannot hold NUL, so these reached the database and failed there with a 500.
  it('refuses a NUL character in a path, a query, a JSON body or a CSS body with 400 naming where', async () => {
    const office = await t.office();
    const requests = [
      [t.http.get('/api/vendors/check/a%00b'), 'licenseId'],
      [t.http.get('/api/payouts/?filter={"vendor":"a\\u0000b"}').set('Authorization', office), 'filter.vendor'],
      [
        t.http
          .post('/api/payments/payout')
          .set('Authorization', office)
          .send({ vendor: 'a\u0000b', expectedAmount: 1 }),
        'vendor',
      ],
      [
        t.http
          .put('/api/settings/css')
          .set('Authorization', office)
          .type('text/css')
          .send('#shop { color: red; } \u0000'),
        '_',
      ],
    ] as const;
    for (const [request, field] of requests) {
      const res = await request;
      assert.equal(res.status, 400, JSON.stringify(res.body));
      assert.match(res.body.message, /NUL/);
      assert.ok(res.body.errors[field], `${field} in ${JSON.stringify(res.body.errors)}`);
    }
  });

  // Found in the penetration test: each answered 500, the list's with its SQL in the log.
  it('refuses prototype names as sort and filter fields and a deeply nested body with 400, no SQL in the log', async () => {
    const office = await t.office();
    const deep = `${'['.repeat(120_000)}${']'.repeat(120_000)}`; // 240 KB
    const requests: [string, () => Promise<{ status: number; body: { message?: string } }>][] = [
      ...['constructor', '__proto__', 'toString', 'hasOwnProperty'].flatMap(
        (field) =>
          [
            [
              `sort ${field}`,
              () =>
                t.http
                  .get(`/api/vendors/?sort=${encodeURIComponent(JSON.stringify([field, 'ASC']))}`)
                  .set('Authorization', office),
            ],
            [
              `filter ${field}`,
              () =>
                t.http.get(`/api/vendors/?filter=${encodeURIComponent(`{"${field}":1}`)}`).set('Authorization', office),
            ],
          ] as [string, () => Promise<{ status: number; body: { message?: string } }>][],
      ),
      ['nested order', () => t.http.post('/api/orders').set('Content-Type', 'application/json').send(deep)],
      [
        'nested in a field',
        () => t.http.post('/api/orders').send({ vendor: 'DEMO-1', entries: JSON.parse(deep.slice(119_000, 121_000)) }),
      ],
      [
        'nested filter',
        () =>
          t.http
            .get(`/api/vendors/?filter=${encodeURIComponent(`{"q":${'['.repeat(500)}${']'.repeat(500)}}`)}`)
            .set('Authorization', office),
      ],
    ];
    for (const [what, request] of requests) {
      let res: { status: number; body: { message?: string } } | undefined;
      const log = await capturedLog(async () => (res = await request()));
      assert.equal(res!.status, 400, `${what}: ${JSON.stringify(res!.body)}`);
      assert.ok(res!.body.message, what);
      assert.ok(!log.some((line) => /select|order by|stack size/i.test(line)), `${what} logged: ${log.join('\n')}`);
    }
  });
});
