import type { Knex } from 'knex';
import { hashPassword } from '../../api/src/identity/accounts/passwords.ts';
import { DEMO_ACCOUNTS } from '../../seeds/demo.ts';

/**
 * The cost the tests' demo logins are stored at: scrypt with N = 2^10 takes about 3 ms where the
 * product's 2^15 takes about 100. The parameters travel in the stored string, so a login checks these
 * as it checks any other (tests/api/login.test.ts holds that a new password is stored at the
 * product's cost). Every login as office or vendor, every wrong guess of the throttling tests and
 * every start’s look for open demo passwords checks one: about 180 checks in a run.
 */
const testCost = { N: 2 ** 10, r: 8, p: 1 };
const hashes = new Map<string, Promise<string>>();

/** Stores the demo logins' passwords of the seeded `db` at the tests' cost. */
export async function demoLoginsAtTestCost(db: Knex): Promise<void> {
  for (const { username, password } of DEMO_ACCOUNTS) {
    if (!hashes.has(password)) hashes.set(password, hashPassword(password, testCost));
    const hash = await hashes.get(password)!;
    await db('accounts').where({ username }).whereNotNull('password_hash').update({ password_hash: hash });
  }
}
