import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';

export interface BenchDatabase {
  readonly engine: 'sqlite' | 'postgres';
  readonly url: string;
  /** Temporary storage (keys, SQLite file) shared by this engine's Tollgate servers. */
  readonly storagePath: string;
  drop(): Promise<void>;
}

/** A fresh SQLite file in a temporary directory. */
export function sqliteDatabase(): BenchDatabase {
  const dir = mkdtempSync(join(tmpdir(), 'tollgate-bench-'));
  return {
    engine: 'sqlite',
    url: join(dir, 'bench.sqlite'),
    storagePath: dir,
    drop: async () => rmSync(dir, { recursive: true, force: true }),
  };
}

/** A fresh PostgreSQL database on the server of `adminUrl`, dropped after the run. */
export async function postgresDatabase(adminUrl: string): Promise<BenchDatabase> {
  const name = `tollgate_bench_${process.pid}_${Date.now()}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  try {
    await admin.query(`CREATE DATABASE ${name}`);
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
