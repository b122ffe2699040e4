import type { Knex } from 'knex';

/** The demo newspaper. Runs inside the caller's transaction. */
export async function seedDemo(_trx: Knex.Transaction | Knex): Promise<void> {}
