import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { authProvider } from '../../src/auth/index.js';
import { Users } from '../../src/auth/users.js';
import { defineConfig } from '../../src/config/index.js';
import { TestClock } from '../../src/core/clock.js';
import type { DeepPartial, TollgateConfig } from '../../src/core/config.js';
import { createLogger } from '../../src/core/logger.js';
import { Application, type ServiceProvider } from '../../src/kernel/application.js';
import { listen, type RunningServer } from '../../src/kernel/server.js';
import { RateLimits } from '../../src/rate-limits/rate-limits.js';
import { tokenIn } from '../auth/browser.js';
import { CookieJar } from '../support/cookie-jar.js';
import { createTestDatabase } from '../support/database.js';
import type { Engine } from '../support/engines.js';

export const ADA = { name: 'Ada Lovelace', email: 'ada@example.com', password: 'correct horse battery' };
export const engine = process.env.TEST_DATABASE_URL ? 'postgres' : 'sqlite';
/** Where the counters live in this run: Redis when REDIS_URL is set, else the database. */
export const store = process.env.REDIS_URL ? 'Redis' : 'database';

export interface Served {
  apps: Application[];
  servers: RunningServer[];
  clock: TestClock;
  close(): Promise<void>;
}

/**
 * `count` instances of an application on one fresh database (and one Redis key prefix when
 * REDIS_URL is set), each served on its own loopback port, Ada registered: several processes
 * behind a load balancer, as far as the limits can tell.
 */
export async function serveInstances(
  options: {
    /** The database engine (see test/support/engines.ts); default the process's one. */
    engine?: Engine;
    count?: number;
    config?: DeepPartial<TollgateConfig>;
    providers?: () => ServiceProvider[];
    setup?: (app: Application) => Promise<void> | void;
  } = {},
): Promise<Served> {
  const database = await createTestDatabase(options.engine);
  const storagePath = mkdtempSync(join(tmpdir(), 'tollgate-throttle-'));
  const clock = new TestClock(new Date('2026-01-15T12:00:00Z'));
  const config = defineConfig(
    { app: { env: 'test', url: 'http://127.0.0.1' }, log: { level: 'silent' } },
    { redis: { url: process.env.REDIS_URL ?? '', keyPrefix: `tollgate-test:${randomUUID()}:` } },
    options.config ?? {},
    { database: { url: database.url }, storagePath },
  );
  const apps: Application[] = [];
  for (let i = 0; i < (options.count ?? 1); i++) {
    const app = await Application.create(config, {
      clock,
      logger: createLogger(process.env.TEST_LOG_LEVEL ?? 'silent'),
      providers: options.providers?.() ?? [authProvider()],
    });
    if (i === 0) await app.migrate();
    await options.setup?.(app);
    await app.boot();
    // Boot waits 2 s for Redis and then counts in the database meanwhile (by design); on a loaded
    // machine the connection can take longer, and these tests are about where the counts live.
    if (process.env.REDIS_URL) await app.container.make(RateLimits).start(30_000);
    apps.push(app);
  }
  await apps[0]!.container.make(Users).create(ADA);
  const servers = await Promise.all(apps.map((app) => listen(app, '127.0.0.1', 0)));
  return {
    apps,
    servers,
    clock,
    close: async () => {
      await Promise.allSettled(servers.map((s) => s.close()));
      await Promise.allSettled(apps.map((a) => a.close()));
      await database.drop();
      rmSync(storagePath, { recursive: true, force: true });
    },
  };
}

/** A browser against a real server: cookies kept, forms posted with their CSRF token. */
export class HttpBrowser extends CookieJar {
  constructor(readonly base: string) {
    super();
  }

  async request(path: string, init: RequestInit = {}): Promise<Response> {
    const headers = this.sendCookies(new Headers(init.headers));
    return this.keepCookies(await fetch(`${this.base}${path}`, { ...init, headers, redirect: 'manual' }));
  }

  /** GETs the form's page and returns a function that posts the form with its token. */
  async form(path: string): Promise<(fields: Record<string, string>) => Promise<Response>> {
    const token = tokenIn(await (await this.request(path)).text());
    return (fields) =>
      this.request(path, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded', origin: this.base },
        body: new URLSearchParams({ _token: token, ...fields }),
      });
  }
}

/** The number of each status among responses, e.g. `{ 422: 5, 429: 25 }`. */
export function statuses(responses: readonly Response[]): Record<number, number> {
  const out: Record<number, number> = {};
  for (const res of responses) out[res.status] = (out[res.status] ?? 0) + 1;
  return out;
}
