import { existsSync } from 'node:fs';
import { sql } from 'kysely';
import { connect } from 'tollgate/database';
import { describe, expect, it } from 'vitest';
import { createTestDatabase } from './database.js';
import { ENGINES } from './engines.js';

describe('the engines every database-backed suite loops', () => {
  it('are SQLite and PostgreSQL, both in the same run', () => {
    expect(ENGINES).toEqual(['sqlite', 'postgres']);
  });
});

describe.each(ENGINES)('a test database on %s', (engine) => {
  it('is a fresh database of that engine, gone after drop()', async () => {
    const database = await createTestDatabase(engine);
    const connection = connect(database.url);
    try {
      expect(connection.engine).toBe(engine);
      const version = sql<{
        v: string;
      }>`select ${sql.raw(engine === 'sqlite' ? 'sqlite_version()' : 'version()')} as v`;
      const { rows } = await version.execute(connection.db);
      expect(rows[0]?.v).toMatch(engine === 'sqlite' ? /^3\./ : /^PostgreSQL /);
    } finally {
      await connection.close();
      await database.drop();
    }
    if (engine === 'sqlite') {
      expect(existsSync(database.url)).toBe(false);
    } else {
      const again = connect(database.url);
      await expect(sql`select 1`.execute(again.db)).rejects.toThrow(/does not exist/);
      await again.close();
    }
  });
});

describe('an unreachable PostgreSQL server', () => {
  it('fails the postgres suites with a message naming the server, never its password', async () => {
    process.env.TEST_DATABASE_URL = 'postgres://tester:s3cret-pw@127.0.0.1:1/postgres';
    const attempt = createTestDatabase('postgres');
    await expect(attempt).rejects.toThrow(
      /PostgreSQL is not reachable at postgres:\/\/tester:\*\*\*@127\.0\.0\.1:1\/postgres/,
    );
    await expect(attempt).rejects.toThrow(/TEST_DATABASE_URL/);
    await expect(attempt).rejects.not.toThrow(/s3cret-pw/);
  });
});
