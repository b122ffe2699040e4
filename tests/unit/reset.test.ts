import assert from 'node:assert/strict';
import type { Db } from '../../api/src/db/connection.ts';
import { readSequences } from '../../api/src/maintenance/tables.ts';
import { oneRow } from '../../api/src/foundations/one-row.ts';
import { seedOnFirstStart } from '../../seeds/index.ts';
import { demoLoginsAtTestCost } from '../support/demo-logins.ts';
import { describeApi } from '../support/env.ts';

// The tests' reset loads a snapshot of the seeded demo instead of seeding again (tests/support/env.ts):
// it must leave what seeding leaves, row for row and serial for serial, whatever a test changed.

/** Every table's rows and every serial's position; values stamped now(), and random file ids, as such. */
async function contents(db: Db): Promise<Record<string, string>> {
  const { rows: tables } = await db.raw<{ rows: { name: string }[] }>(
    `select tablename as name from pg_tables where schemaname = current_schema()
       and tablename not like 'knex_migrations%' and tablename not in ('shop_revision', 'stripe_sandbox_credentials')
     order by 1`,
  );
  const { now } = oneRow((await db.raw<{ rows: { now: Date }[] }>('select now()')).rows);
  const stamped = (value: unknown) =>
    typeof value === 'string' &&
    /^\d{4}-\d\d-\d\dT/.test(value) &&
    Math.abs(Date.parse(value) - now.getTime()) < 60_000;
  const uuid = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
  const found: Record<string, string> = {};
  for (const { name } of tables) {
    const { rows } = await db.raw<{ rows: unknown[] }>(
      `select * from "${name}" order by ${name === 'files' ? 'name' : '1'}`,
    );
    // The demo's marker keeps the first seed's time inside its JSON (seeds/index.ts writes it, not
    // a column a reset stamps anew; startup/safety.ts only asks whether it exists): by the time a long
    // run reaches this file it may be minutes old. A time since this process started is this run's.
    if (name === 'system_state')
      for (const row of rows as { key: string; value: { at?: unknown } }[])
        if (
          row.key === 'demo_seeded' &&
          typeof row.value.at === 'string' &&
          Date.parse(row.value.at) >= performance.timeOrigin - 1000 &&
          Date.parse(row.value.at) <= Date.now()
        )
          row.value.at = 'seeded in this run';
    found[name] = JSON.stringify(rows, (_, value: unknown) =>
      stamped(value) ? 'now' : typeof value === 'string' && uuid.test(value) ? 'uuid' : value,
    );
  }
  const serials = await readSequences(
    db,
    tables.map(({ name }) => ({ name, key: [], hasBytes: false })),
  );
  found.serials = JSON.stringify(serials);
  return found;
}

/** What a test might leave behind: rows added and changed, serials moved on. */
async function changeThings(db: Db): Promise<void> {
  await db('vendors').insert({ license_id: 'RESET-1', first_name: 'Rita', last_name: 'Reset', email: 'r@example.org' });
  await db('vendors').where({ license_id: 'DEMO-2' }).update({ first_name: 'Changed' });
  await db('items').insert({ name: 'Extra', price: 100 });
  await db('tills').insert({ name: 'Kasse 9' });
  await db('vendor_comments').insert({ vendor_id: 1, comment: 'left behind' });
}

describeApi('the tests’ reset', (t, engine) => {
  it('leaves the rows, ids and serials seeding again leaves, and raises the shop’s revision', async () => {
    // Seeding again, as the reset did before it kept a snapshot (the demo logins at the tests' cost).
    await changeThings(t.db);
    await t.db.transaction(async (trx) => {
      const { rows } = await trx.raw<{ rows: { name: string }[] }>(
        `select tablename as name from pg_tables where schemaname = current_schema()
           and tablename not like 'knex_migrations%' and tablename <> 'stripe_sandbox_credentials'`,
      );
      await trx.raw(`truncate table ${rows.map(({ name }) => `"${name}"`).join(', ')} restart identity cascade`);
      await trx('settings').insert({ id: 1 });
      await seedOnFirstStart(trx);
      await demoLoginsAtTestCost(trx);
    });
    const seeded = await contents(t.db);
    const revision = async () => Number((await t.db('shop_revision').first('revision'))?.revision);
    const before = await revision();

    await changeThings(t.db);
    await t.reset();
    assert.deepEqual(await contents(t.db), seeded);
    assert.ok((await revision()) > before, 'the shop’s copies of settings and items are read again');
  });

  if (engine === 'pglite')
    it('on PGlite loads again only the tables a test changed and those whose foreign keys reach them', async () => {
      await t.reset();
      const seeded = await contents(t.db);
      const newest = async (table: string) =>
        oneRow(
          (await t.db.raw<{ rows: { xmin: string }[] }>(`select max(xmin::text::bigint)::text as xmin from "${table}"`))
            .rows,
        ).xmin;
      const items = await newest('items');
      const locations = await newest('vendor_locations');
      // vendor_locations holds seeded rows whose foreign key reaches vendors: emptied with it, and loaded again
      await t.db('vendors').where({ license_id: 'DEMO-2' }).update({ first_name: 'Changed' });
      await t.db('vendor_comments').insert({ vendor_id: 1, comment: 'left behind' });
      await t.reset();
      assert.deepEqual(await contents(t.db), seeded);
      assert.equal(await newest('items'), items, 'the items, which no test changed, stay as they were');
      assert.notEqual(await newest('vendor_locations'), locations, 'the vendors’ locations are loaded again');
    });
});
