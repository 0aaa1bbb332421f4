// Bulk-loads access-token rows straight into the table (in SQL, not issued one by one), so a
// scenario can run against a table of millions of rows: BENCH_PRELOAD_ROWS rows of a client of
// their own, live for a day or (BENCH_PRELOAD_EXPIRED=1) expired a month ago. Idempotent on one
// database: a marker row records that the load is done.
import { sql } from 'kysely';
import type { Application } from 'tollgate';
import { Clients } from 'tollgate/oauth';

const MARKER = 'bench-preload-done';
const CHUNK = { sqlite: 100_000, postgres: 500_000 };

export async function preloadAccessTokens(app: Application, rows: number, expired: boolean): Promise<void> {
  const { db, engine } = app;
  const done = await db
    .selectFrom('oauth_access_tokens')
    .select('id')
    .where('id', '=', MARKER)
    .executeTakeFirst();
  if (done || rows <= 0) return;
  const { client } = await app.container.make(Clients).create({ name: 'Preloaded', redirect: '' });
  const now = new Date().toISOString();
  const day = 86_400_000;
  const expiresAt = new Date(Date.now() + (expired ? -30 * day : day)).toISOString();
  const started = Date.now();
  // Ids as Tollgate issues them (the issuing millisecond, then random bits: token-ids.ts), one
  // millisecond apart, all before now: a table filled over time, which new tokens append to.
  const firstMs = started - rows - 1;
  for (let loaded = 0; loaded < rows; loaded += CHUNK[engine]) {
    const count = Math.min(CHUNK[engine], rows - loaded);
    const statement =
      engine === 'sqlite'
        ? sql`WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ${count})
            INSERT INTO oauth_access_tokens (id, user_id, client_id, name, scopes, revoked, created_at, updated_at, expires_at)
            SELECT printf('%012x', ${firstMs + loaded} + i) || lower(hex(randomblob(14))), NULL, ${client.id}, NULL, '["check-status"]', 0, ${now}, ${now}, ${expiresAt} FROM n`
        : sql`INSERT INTO oauth_access_tokens (id, user_id, client_id, name, scopes, revoked, created_at, updated_at, expires_at)
            SELECT lpad(to_hex(${firstMs + loaded}::bigint + i), 12, '0') || substr(md5(random()::text), 1, 28), NULL, ${client.id}, NULL, '["check-status"]', 0, ${now}, ${now}, ${expiresAt}
            FROM generate_series(1, ${count}) AS i`;
    await db.transaction().execute((trx) => statement.execute(trx));
  }
  await db
    .insertInto('oauth_access_tokens')
    .values({
      id: MARKER,
      user_id: null,
      client_id: client.id,
      name: null,
      scopes: '[]',
      revoked: 1,
      created_at: now,
      updated_at: now,
      expires_at: now,
    })
    .execute();
  if (engine === 'postgres') await sql`ANALYZE oauth_access_tokens`.execute(db);
  process.stderr.write(
    `preloaded ${rows.toLocaleString('en')} access tokens in ${((Date.now() - started) / 1000).toFixed(1)} s\n`,
  );
}
