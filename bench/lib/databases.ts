import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import SQLite from 'better-sqlite3';
import pg from 'pg';

export interface BenchDatabase {
  readonly engine: 'sqlite' | 'postgres';
  readonly url: string;
  /** Temporary storage (keys, SQLite file) shared by this engine's Tollgate servers. */
  readonly storagePath: string;
  /** The server's version string, for the record. */
  readonly version: string;
  drop(): Promise<void>;
}

/** A fresh SQLite file in a temporary directory. */
export function sqliteDatabase(): BenchDatabase {
  const dir = mkdtempSync(join(tmpdir(), 'tollgate-bench-'));
  return {
    engine: 'sqlite',
    url: join(dir, 'bench.sqlite'),
    storagePath: dir,
    version: `SQLite ${(new SQLite(':memory:').prepare('select sqlite_version() as v').get() as { v: string }).v}`,
    drop: async () => rmSync(dir, { recursive: true, force: true }),
  };
}

/** A fresh PostgreSQL database on the server of `adminUrl`, dropped after the run. */
export async function postgresDatabase(adminUrl: string): Promise<BenchDatabase> {
  const name = `tollgate_bench_${process.pid}_${Date.now()}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  let version: string;
  try {
    await admin.query(`CREATE DATABASE ${name}`);
    version = (await admin.query<{ server_version: string }>('SHOW server_version')).rows[0]!.server_version;
  } finally {
    await admin.end();
  }
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  const dir = mkdtempSync(join(tmpdir(), 'tollgate-bench-pg-'));
  return {
    engine: 'postgres',
    url: url.toString(),
    storagePath: dir,
    version: `PostgreSQL ${version}`,
    drop: async () => {
      rmSync(dir, { recursive: true, force: true });
      const client = new pg.Client({ connectionString: adminUrl });
      await client.connect();
      try {
        await client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      } finally {
        await client.end();
      }
    },
  };
}
