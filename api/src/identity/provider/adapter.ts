import type { Knex } from 'knex';
import { errors, type Adapter, type AdapterPayload } from 'oidc-provider';

type Db = Knex | Knex.Transaction;

interface StateRow {
  payload: AdapterPayload;
}

const epochNow = () => Math.floor(Date.now() / 1000);

/**
 * oidc-provider's storage on our database: one table for every model, keyed by model and id, so
 * every API process sees the same sessions, grants, codes and refresh tokens.
 */
export function databaseAdapter(db: Knex) {
  return class DatabaseAdapter implements Adapter {
    constructor(private readonly model: string) {}

    private live() {
      return db('oidc_state')
        .where({ model: this.model })
        .where((q) => {
          q.whereNull('expires_at').orWhere('expires_at', '>', db.fn.now());
        });
    }

    private async first(query: Knex.QueryBuilder): Promise<AdapterPayload | undefined> {
      const row = await query.first<StateRow | undefined>('payload');
      return row?.payload;
    }

    async upsert(id: string, payload: AdapterPayload, expiresIn?: number): Promise<void> {
      // Each login starts an interaction: a fitting moment to drop what has expired, in any process.
      if (this.model === 'Interaction') await db('oidc_state').where('expires_at', '<', db.fn.now()).delete();
      await db('oidc_state')
        .insert({
          model: this.model,
          id,
          payload: JSON.stringify(payload),
          grant_id: payload.grantId ?? null,
          uid: payload.uid ?? null,
          user_code: payload.userCode ?? null,
          account_id: payload.accountId ?? null,
          expires_at: expiresIn ? new Date(Date.now() + expiresIn * 1000) : null,
        })
        .onConflict(['model', 'id'])
        .merge();
    }

    find(id: string) {
      return this.first(this.live().where({ id }));
    }

    findByUid(uid: string) {
      return this.first(this.live().where({ uid }));
    }

    findByUserCode(userCode: string) {
      return this.first(this.live().where({ user_code: userCode }));
    }

    /**
     * Marks a code or refresh token used, in one statement: oidc-provider checks `consumed` before it
     * calls this, so two processes redeeming the same one at once both pass that check. The one that
     * comes second finds it taken and is refused, and the grant ends, as for any reuse.
     */
    async consume(id: string): Promise<void> {
      const taken = await db('oidc_state')
        .where({ model: this.model, id })
        .whereRaw(`payload->'consumed' is null`)
        .update({ payload: db.raw(`payload || jsonb_build_object('consumed', ?::bigint)`, [epochNow()]) })
        .returning('id');
      if (taken.length) return;
      const row = await db('oidc_state')
        .where({ model: this.model, id })
        .first<{ grant_id: string | null } | undefined>('grant_id');
      if (row?.grant_id) await db('oidc_state').where({ grant_id: row.grant_id }).delete();
      throw new errors.InvalidGrant(`${this.model} already consumed`);
    }

    async destroy(id: string): Promise<void> {
      await db('oidc_state').where({ model: this.model, id }).delete();
    }

    async revokeByGrantId(grantId: string): Promise<void> {
      await db('oidc_state').where({ model: this.model, grant_id: grantId }).delete();
    }
  };
}

/** Ends everything an account holds at the provider: sessions, grants, codes, refresh tokens. */
export async function revokeAccountState(db: Db, accountId: string): Promise<void> {
  await db('oidc_state').where({ account_id: accountId }).delete();
}
