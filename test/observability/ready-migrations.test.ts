import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { KyselyPlugin } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Connection, connect } from '../../src/database/connection.js';
import { MigrationsCurrent } from '../../src/database/migrations-current.js';
import { migrateToLatest } from '../../src/database/migrator.js';
import { createTestDatabase, type TestDatabase } from '../support/database.js';
import { ENGINES } from '../support/engines.js';

/** Counts the statements run through the Kysely it is plugged into. */
function statementCounter(): KyselyPlugin & { count: number } {
  return {
    count: 0,
    transformQuery(args) {
      this.count++;
      return args.node;
    },
    transformResult: async (args) => args.result,
  };
}

const folder = (files: Record<string, string>) => {
  const dir = mkdtempSync(join(tmpdir(), 'tollgate-ready-migrations-'));
  for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text);
  return dir;
};

describe.each(ENGINES)("/ready's migrations check (%s)", (engine) => {
  let database: TestDatabase;
  let connection: Connection;
  const folders: string[] = [];

  beforeAll(async () => {
    database = await createTestDatabase(engine);
    connection = connect(database.url);
  });
  afterAll(async () => {
    await connection?.close();
    await database?.drop();
    for (const dir of folders) rmSync(dir, { recursive: true, force: true });
  });

  it('reads names, never imports a migration; once all have run it runs no statement; a module registered later is checked afresh', async () => {
    const ran = folder({
      '2020_01_01_000000_first.mjs': 'export async function up() {}\n',
      '2020_01_02_000000_second.mjs': 'export async function up() {}\n',
    });
    folders.push(ran);
    const counter = statementCounter();
    const check = new MigrationsCurrent(connection.db.withPlugin(counter));

    // Nothing has run (no migration table yet): both named as pending.
    await expect(check.check([ran])).rejects.toThrow('2 migrations have not run: 2020_01_01_000000_first…');
    await migrateToLatest(connection.db, [ran]);

    counter.count = 0;
    await check.check([ran]);
    expect(counter.count).toBe(1);
    for (let i = 0; i < 5; i++) await check.check([ran]);
    expect(counter.count).toBe(1);

    // A migration that would throw if imported: the check names it from its file alone.
    const later = folder({ '2099_01_01_000000_later.mjs': "throw new Error('imported');\n" });
    folders.push(later);
    await expect(check.check([ran, later])).rejects.toThrow(
      '1 migrations have not run: 2099_01_01_000000_later…',
    );
    await expect(check.check([ran, later])).rejects.toThrow('2099_01_01_000000_later');
    expect(counter.count).toBe(3);
    // The folders without it are still known current: no statement.
    await check.check([ran]);
    expect(counter.count).toBe(3);
  });
});
