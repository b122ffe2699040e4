import { randomBytes, scrypt } from 'node:crypto';
import type { Knex } from 'knex';
import { DEMO_ACCOUNTS } from '../../seeds/demo.ts';

/**
 * The demo logins of the tests' seeded demo, hashed with scrypt at N = 2^10: about 3 ms a check,
 * where the product's 2^15 takes about 100. Every login as office or vendor, every wrong guess of the
 * throttling tests and every start's look for open demo passwords checks one: about 180 checks in a
 * run. The hash is written here as api/src/identity/accounts/passwords.ts documents its stored form,
 * `scrypt$N$r$p$salt$key` (base64url), so each such login also shows that the product reads that form
 * with parameters other than its own; tests/api/login.test.ts holds that it writes its own at 2^15.
 */
const N = 2 ** 10;
const r = 8;
const p = 1;
const hashes = new Map<string, Promise<string>>();

function testHash(password: string): Promise<string> {
  const salt = randomBytes(16);
  return new Promise((resolve, reject) =>
    scrypt(password.normalize('NFC'), salt, 64, { N, r, p }, (error, key) =>
      error
        ? reject(error)
        : resolve(['scrypt', N, r, p, salt.toString('base64url'), key.toString('base64url')].join('$')),
    ),
  );
}

/** Stores the demo logins' passwords of the seeded `db` at the tests' cost. */
export async function demoLoginsAtTestCost(db: Knex): Promise<void> {
  for (const { username, password } of DEMO_ACCOUNTS) {
    if (!hashes.has(password)) hashes.set(password, testHash(password));
    const hash = await hashes.get(password)!;
    await db('accounts').where({ username }).whereNotNull('password_hash').update({ password_hash: hash });
  }
}
