// A database adapter for oidc-provider (its `adapter` option), so the peer keeps its state where
// Tollgate keeps its own: the provider's default in-memory adapter is development-only (it says
// so at start) and makes every save a Map write. One table for every model, as panva's example
// SQL adapters: the payload as JSON, the columns the lookups need (grant, session uid, user
// code), expiry and consumption. Kysely on the same database and connection settings as the
// floor and Tollgate rows.
import { type Kysely, sql } from 'kysely';
import { connect } from './floor-database.js';

interface OidcTables {
  oidc_models: {
    model: string;
    id: string;
    payload: string;
    grant_id: string | null;
    uid: string | null;
    user_code: string | null;
    expires_at: number | null;
    consumed_at: number | null;
  };
}

type Payload = Record<string, unknown>;

/** Connects, creates the table, and returns the adapter class for `new Provider(…, { adapter })`. */
export async function databaseAdapter(url: string) {
  const db: Kysely<OidcTables> = connect<OidcTables>(url);
  await sql`create table if not exists oidc_models (model varchar(64) not null, id varchar(255) not null, payload text not null, grant_id varchar(255), uid varchar(255), user_code varchar(255), expires_at bigint, consumed_at bigint, primary key (model, id))`.execute(
    db,
  );
  await sql`create index if not exists oidc_models_grant_id on oidc_models (grant_id)`.execute(db);
  await sql`create index if not exists oidc_models_uid on oidc_models (uid)`.execute(db);
  await sql`create index if not exists oidc_models_user_code on oidc_models (user_code)`.execute(db);

  const now = () => Math.floor(Date.now() / 1000);
  const live = (row: OidcTables['oidc_models'] | undefined): Payload | undefined => {
    if (!row || (row.expires_at !== null && Number(row.expires_at) <= now())) return undefined;
    const payload = JSON.parse(row.payload) as Payload;
    return row.consumed_at === null ? payload : { ...payload, consumed: Number(row.consumed_at) };
  };

  return class DatabaseAdapter {
    constructor(private readonly model: string) {}

    async upsert(id: string, payload: Payload, expiresIn?: number): Promise<void> {
      const row = {
        payload: JSON.stringify(payload),
        grant_id: (payload.grantId as string | undefined) ?? null,
        uid: (payload.uid as string | undefined) ?? null,
        user_code: (payload.userCode as string | undefined) ?? null,
        expires_at: expiresIn ? now() + expiresIn : null,
      };
      await db
        .insertInto('oidc_models')
        .values({ model: this.model, id, consumed_at: null, ...row })
        .onConflict((conflict) => conflict.columns(['model', 'id']).doUpdateSet(row))
        .execute();
    }

    find(id: string): Promise<Payload | undefined> {
      return this.#findBy('id', id);
    }

    findByUid(uid: string): Promise<Payload | undefined> {
      return this.#findBy('uid', uid);
    }

    findByUserCode(userCode: string): Promise<Payload | undefined> {
      return this.#findBy('user_code', userCode);
    }

    async consume(id: string): Promise<void> {
      await db
        .updateTable('oidc_models')
        .set({ consumed_at: now() })
        .where('model', '=', this.model)
        .where('id', '=', id)
        .execute();
    }

    async destroy(id: string): Promise<void> {
      await db.deleteFrom('oidc_models').where('model', '=', this.model).where('id', '=', id).execute();
    }

    async revokeByGrantId(grantId: string): Promise<void> {
      await db.deleteFrom('oidc_models').where('grant_id', '=', grantId).execute();
    }

    async #findBy(column: 'id' | 'uid' | 'user_code', value: string): Promise<Payload | undefined> {
      return live(
        await db
          .selectFrom('oidc_models')
          .selectAll()
          .where('model', '=', this.model)
          .where(column, '=', value)
          .executeTakeFirst(),
      );
    }
  };
}
