import { randomBytes, randomUUID } from 'node:crypto';
import pg from 'pg';
import { type Engine, postgresServerUrl } from './engines.js';
import { createSqliteDatabase, type TestDatabase } from './sqlite-database.js';

export type { TestDatabase };

/**
 * A fresh, empty database for one suite: a temporary SQLite file, or a new database created on
 * the PostgreSQL server (TEST_DATABASE_URL, else the local default) and dropped afterwards.
 * Without an engine, the file's one engine for the whole process: PostgreSQL when
 * TEST_DATABASE_URL is set (the files that do not loop ENGINES yet).
 */
export async function createTestDatabase(engine: Engine = engineOfThisProcess()): Promise<TestDatabase> {
  // A database is a deployment of its own, and so are its Redis keys (rate limits, revocations):
  // a file that loops ENGINES must not meet, on PostgreSQL, the counts its SQLite half left.
  process.env.REDIS_PREFIX = `tollgate-test:${randomUUID()}:`;
  if (engine === 'sqlite') return createSqliteDatabase();
  const server = postgresServerUrl();
  const name = `tollgate_test_${process.pid}_${randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: server });
  try {
    await admin.connect();
  } catch (err) {
    await admin.end().catch(() => undefined);
    throw new Error(
      `PostgreSQL is not reachable at ${redact(server)} (${String(err)}). Start it (bash .ci/run does), or point TEST_DATABASE_URL at a server the tests may create databases on.`,
    );
  }
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const url = new URL(server);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    engine: 'postgres',
    drop: async () => {
      const client = new pg.Client({ connectionString: server });
      await client.connect();
      await client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await client.end();
    },
  };
}

function engineOfThisProcess(): Engine {
  return process.env.TEST_DATABASE_URL ? 'postgres' : 'sqlite';
}

function redact(url: string): string {
  const u = new URL(url);
  if (u.password) u.password = '***';
  return u.toString();
}
