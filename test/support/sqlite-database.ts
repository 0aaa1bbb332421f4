import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export interface TestDatabase {
  url: string;
  engine: 'sqlite' | 'postgres';
  drop(): Promise<void>;
}

/** A fresh, empty SQLite file in a temporary folder, removed with it by `drop()`. */
export function createSqliteDatabase(): TestDatabase {
  const dir = mkdtempSync(join(tmpdir(), 'tollgate-test-'));
  return {
    url: join(dir, 'test.sqlite'),
    engine: 'sqlite',
    drop: async () => rmSync(dir, { recursive: true, force: true }),
  };
}
