import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';

export interface TestDatabase {
  url: string;
  engine: 'sqlite' | 'postgres';
  drop(): Promise<void>;
}

/**
 * A fresh, empty database for one test file: a temporary SQLite file, or — when TEST_DATABASE_URL
 * names a PostgreSQL server — a new database created on it and dropped afterwards.
 */
export async function createTestDatabase(): Promise<TestDatabase> {
  const base = process.env.TEST_DATABASE_URL;
  if (!base) {
    const dir = mkdtempSync(join(tmpdir(), 'tollgate-test-'));
    return {
      url: join(dir, 'test.sqlite'),
      engine: 'sqlite',
      drop: async () => rmSync(dir, { recursive: true, force: true }),
    };
  }
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
