import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { defineConfig } from '../../src/config/index.js';
import { TestClock } from '../../src/core/clock.js';
import type { DeepPartial, TollgateConfig } from '../../src/core/config.js';
import { createLogger, type Logger } from '../../src/core/logger.js';
import { Application, type ServiceProvider } from '../../src/kernel/application.js';
import { createTestDatabase } from './database.js';
import type { Engine } from './engines.js';

export interface TestApp {
  app: Application;
  clock: TestClock;
  storagePath: string;
  /** Sends a request to the app in process, as a server would. */
  request(path: string, init?: RequestInit): Promise<Response>;
  close(): Promise<void>;
}

/**
 * A migrated, booted application on a fresh database of the given engine (see engines.ts) with a
 * TestClock and a temporary storage folder.
 */
export async function createTestApp(
  options: {
    /** Default: the process's one engine (files that do not loop ENGINES yet). */
    engine?: Engine;
    config?: DeepPartial<TollgateConfig>;
    providers?: ServiceProvider[];
    /** Runs after providers register, before boot: declare routes here. */
    setup?: (app: Application) => void | Promise<void>;
    clock?: TestClock;
    /** Default: silent (or TEST_LOG_LEVEL). */
    logger?: Logger;
  } = {},
): Promise<TestApp> {
  const database = await createTestDatabase(options.engine);
  const storagePath = mkdtempSync(join(tmpdir(), 'tollgate-storage-'));
  const clock = options.clock ?? new TestClock(new Date('2026-01-15T12:00:00Z'));
  const config = defineConfig(
    { app: { env: 'test', url: 'http://localhost' }, storagePath, log: { level: 'silent' } },
    options.config ?? {},
    { database: { url: database.url }, storagePath, routes: { cachePath: join(storagePath, 'routes.json') } },
  );
  const app = await Application.create(config, {
    clock,
    logger: options.logger ?? createLogger(process.env.TEST_LOG_LEVEL ?? 'silent'),
    providers: options.providers,
  });
  await app.migrate();
  await options.setup?.(app);
  await app.boot();
  return {
    app,
    clock,
    storagePath,
    request: async (path, init) => app.fetch(new Request(new URL(path, 'http://localhost'), init)),
    close: async () => {
      await app.close();
      await database.drop();
      rmSync(storagePath, { recursive: true, force: true });
    },
  };
}
