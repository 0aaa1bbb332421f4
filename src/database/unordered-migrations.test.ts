import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'kysely';
import { afterAll, describe, expect, it } from 'vitest';
import { createTestDatabase } from '../../test/support/database.js';
import { ENGINES } from '../../test/support/engines.js';
import { connect } from './connection.js';
import { migrateToLatest } from './migrator.js';

/**
 * An upgrade that ships a migration dated before the application's latest one: it runs, as
 * Laravel's `migrate` would run it, instead of stopping every later deploy.
 */
describe.each(ENGINES)('migrations from several folders (%s)', (engine) => {
  const root = mkdtempSync(join(tmpdir(), 'tollgate-migrations-'));
  afterAll(() => rmSync(root, { recursive: true, force: true }));

  const folder = (name: string, migrations: Record<string, string>) => {
    const dir = join(root, name);
    mkdirSync(dir, { recursive: true });
    for (const [file, table] of Object.entries(migrations)) {
      writeFileSync(
        join(dir, `${file}.mjs`),
        `export async function up(db) { await db.schema.createTable('${table}').addColumn('id', 'integer').execute(); }\n` +
          `export async function down(db) { await db.schema.dropTable('${table}').execute(); }\n`,
      );
    }
    return dir;
  };

  it('runs a pending migration that sorts before one already run', async () => {
    const database = await createTestDatabase(engine);
    const { db, close } = connect(database.url);
    try {
      const app = folder('app', { '2026_12_01_000000_create_app_things': 'app_things' });
      await migrateToLatest(db, [app]);
      const upgrade = folder('package', { '2026_11_28_000000_create_package_things': 'package_things' });
      const result = await migrateToLatest(db, [upgrade, app]);
      expect(result.results?.map((r) => [r.migrationName, r.status])).toEqual([
        ['2026_11_28_000000_create_package_things', 'Success'],
      ]);
      await sql`select * from package_things`.execute(db);
    } finally {
      await close();
      await database.drop();
    }
  });
});
