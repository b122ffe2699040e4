import type { Knex } from 'knex';

/**
 * Reads that do not depend on each other: side by side on a pool, each on a connection of its own;
 * one after another in a transaction, whose one connection takes one query at a time (pg queues
 * overlapping queries on a client with a deprecation warning today and refuses them from version 9;
 * PGlite runs them one at a time anyway).
 */
export async function independentReads<T extends unknown[]>(
  db: Knex | Knex.Transaction,
  ...reads: { [K in keyof T]: () => Promise<T[K]> }
): Promise<T> {
  if (!db.isTransaction) return (await Promise.all(reads.map((read) => read()))) as T;
  const results: unknown[] = [];
  for (const read of reads) results.push(await read());
  return results as T;
}
