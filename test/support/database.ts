import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { createSqliteDatabase, type TestDatabase } from './sqlite-database.js';

export type { TestDatabase };

/**
 * A fresh, empty database for one test file: a temporary SQLite file, or — when TEST_DATABASE_URL
 * names a PostgreSQL server — a new database created on it and dropped afterwards.
 */
export async function createTestDatabase(): Promise<TestDatabase> {
  const base = process.env.TEST_DATABASE_URL;
  if (!base) return createSqliteDatabase();
  const name = `tollgate_test_${process.pid}_${randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: base });
  try {
    await admin.connect();
  } catch (err) {
    throw new Error(
      `TEST_DATABASE_URL is set but PostgreSQL is not reachable at ${redact(base)}: ${String(err)}`,
    );
  }
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const url = new URL(base);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    engine: 'postgres',
    drop: async () => {
      const client = new pg.Client({ connectionString: base });
      await client.connect();
      await client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await client.end();
    },
  };
}

function redact(url: string): string {
  const u = new URL(url);
  if (u.password) u.password = '***';
  return u.toString();
}
