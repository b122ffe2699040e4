import assert from 'node:assert/strict';
import { z } from 'zod';
import { routes } from '../../api/src/routes.ts';
import { DomainError } from '../../api/src/foundations/errors.ts';
import { readBody, readInput } from '../../api/src/http/validate.ts';

// A route reads its body before its transaction, its lock and any call out (the route table's
// `input`); a handler that took a body its route does not declare would parse it after them.

describe('a route body read before the database', () => {
  const schema = z.object({ name: z.string() });

  it('hands the handler the body the route table read, and refuses a body its route did not declare', () => {
    const ctx = { request: { body: { name: 'Maria' } }, state: {} };
    assert.throws(() => readInput(ctx, schema), /does not declare as its input/);
    readBody(ctx, schema);
    const read = readInput(ctx, schema);
    assert.deepEqual(read, { name: 'Maria' });
    assert.equal(readInput(ctx, schema), read, 'read once: the same object again, also on a retried transaction');
    assert.throws(() => readInput(ctx, z.object({ name: z.string() })), /does not declare as its input/);
  });

  it('refuses a malformed body as invalid, naming the field, and keeps nothing of it', () => {
    const ctx: { request: { body: unknown }; state: { input?: { schema: unknown; value: unknown } } } = {
      request: { body: { name: 7 } },
      state: {},
    };
    assert.throws(
      () => readBody(ctx, schema),
      (error: unknown) => error instanceof DomainError && error.refusal === 'invalid' && 'name' in (error.errors ?? {}),
    );
    assert.equal(ctx.state.input, undefined);
  });

  it('every route with a JSON or form body declares the schema it reads (a raw body is checked by its signature)', () => {
    const withBody = routes.filter((route) => route.body === 'json' || route.body === 'multipart');
    assert.ok(withBody.length > 20, 'the routes that take a body');
    const undeclared = withBody.filter((route) => !route.input).map((route) => `${route.method} ${route.path}`);
    assert.deepEqual(undeclared, []);
  });
});
