import assert from 'node:assert/strict';
import type { Response } from 'supertest';

/** A refusal as a person sees it: the expected 4xx, a message in words, and the field it names. */
export function assertRefused(res: Response, status: number, field?: string): void {
  assert.equal(res.status, status, `expected ${status}, got ${res.status}: ${JSON.stringify(res.body)}`);
  assert.equal(typeof res.body.message, 'string');
  assert.ok(res.body.message.trim().length > 0, 'the message is empty');
  if (field) assert.ok(res.body.errors?.[field], `no error for "${field}" in ${JSON.stringify(res.body.errors)}`);
}
