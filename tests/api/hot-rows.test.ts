import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { writeEntry } from '../../api/src/protocol/record.ts';
import { hotRows } from '../../api/src/db/connection.ts';
import { describeApi } from '../support/env.ts';

// A payment's booking writes through hotRows inside its transaction: on PostgreSQL the
// statement goes to the driver, so it must run on the transaction's own connection, or a booking
// rolled back would leave rows behind.

const entriesOf = 'select count(*)::int as n from protocol_entries where action = ?';

describeApi('statements on the hot paths (hotRows) inside a transaction', (t) => {
  it('run on the transaction’s connection: they see what it wrote and are undone with it', async () => {
    const action = `test.hot-rows.${randomUUID()}`;
    await assert.rejects(
      t.db.transaction(async (trx) => {
        await writeEntry(trx, { action });
        const [inside] = await hotRows<{ n: number }>(trx, entriesOf, [action]);
        assert.equal(inside?.n, 1, 'the transaction sees its own entry');
        throw new Error('rolled back on purpose');
      }),
      /rolled back on purpose/,
    );
    const [after] = await hotRows<{ n: number }>(t.db, entriesOf, [action]);
    assert.equal(after?.n, 0, 'nothing of the rolled-back transaction is left');
  });
});
