import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import { expect } from 'vitest';
import { referenceConfig } from '../../app/config.js';
import { routes } from '../../app/routes.js';
import { AppUser } from '../../app/user.js';
import { authProvider } from '../../src/auth/index.js';
import { UserModelKey, Users } from '../../src/auth/users.js';
import { defineConfig } from '../../src/config/index.js';
import { TestClock } from '../../src/core/clock.js';
import type { DeepPartial, TollgateConfig } from '../../src/core/config.js';
import { createLogger } from '../../src/core/logger.js';
import { Application, type ServiceProvider } from '../../src/kernel/application.js';
import type { ApiGuardOptions } from '../../src/oauth/guard/index.js';
import { type ApiTokensUser, Clients, installKeys, oauthProvider } from '../../src/oauth/index.js';
import { createTestDatabase } from '../support/database.js';
import type { Engine } from '../support/engines.js';
import { ADA } from './support.js';

export interface Instances {
  a: Application;
  b: Application;
  ada: ApiTokensUser;
  call(app: Application, path: string, token: string): Promise<Response>;
  close(): Promise<void>;
}

/**
 * Two instances of the reference service on one database and one key pair, as two processes
 * behind a load balancer would be: what one revokes, the other must refuse.
 */
export async function twoInstances(
  engine: Engine,
  config: DeepPartial<TollgateConfig>,
  guards: { a?: ApiGuardOptions; b?: ApiGuardOptions } = {},
  /** Providers each instance registers after the reference service's (organizations, …). */
  more: () => ServiceProvider[] = () => [],
): Promise<Instances> {
  const database = await createTestDatabase(engine);
  const storagePath = mkdtempSync(join(tmpdir(), 'tollgate-instances-'));
  const merged = defineConfig(
    { app: { env: 'test', url: 'http://localhost' }, log: { level: 'silent' }, oauth: referenceConfig.oauth },
    config,
    { database: { url: database.url }, storagePath },
  );
  const make = async (guard: ApiGuardOptions | undefined) => {
    const app = await Application.create(merged, {
      clock: new TestClock(new Date('2026-01-15T12:00:00Z')),
      logger: createLogger('silent'),
      providers: [authProvider(), oauthProvider({ guard }), routes, ...more()],
    });
    app.container.instance(UserModelKey, AppUser);
    return app;
  };
  const a = await make(guards.a);
  await a.migrate();
  installKeys(storagePath, merged.oauth.signingAlgorithm);
  const b = await make(guards.b);
  await a.boot();
  await b.boot();
  await a.container.make(Clients).create({ name: 'PAC', redirect: 'http://localhost', personalAccess: true });
  const ada = await a.container.make(Users).create<AppUser>(ADA);
  return {
    a,
    b,
    ada: ada as unknown as ApiTokensUser,
    call: async (app, path, token) =>
      app.fetch(
        new Request(`http://localhost${path}`, {
          headers: { accept: 'application/json', authorization: `Bearer ${token}` },
        }),
      ),
    close: async () => {
      await Promise.allSettled([a.close(), b.close()]);
      await database.drop();
      rmSync(storagePath, { recursive: true, force: true });
    },
  };
}

/** Fails loudly (never skips) when REDIS_URL names a Redis that does not answer. */
export async function requireRedis(url: string): Promise<void> {
  const probe = new Redis(url, {
    lazyConnect: true,
    connectTimeout: 1000,
    maxRetriesPerRequest: 0,
    retryStrategy: () => null,
  });
  probe.on('error', () => {});
  try {
    await probe.connect();
    expect(await probe.ping()).toBe('PONG');
  } catch (err) {
    throw new Error(`REDIS_URL is set (${url}) but Redis does not answer: ${(err as Error).message}`);
  } finally {
    probe.disconnect();
  }
}
