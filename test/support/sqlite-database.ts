import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Engine } from './engines.js';

export interface TestDatabase {
  url: string;
  engine: Engine;
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
