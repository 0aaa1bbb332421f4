import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createApp } from '../../app/bootstrap.js';
import { closeBilling } from '../../src/billing/service-provider.js';
import type { DeepPartial, TollgateConfig } from '../../src/core/config.js';
import { createLogger, type Logger } from '../../src/core/logger.js';
import type { Application } from '../../src/kernel/application.js';
import { listen, type RunningServer } from '../../src/kernel/server.js';
import { installOAuth } from '../../src/oauth/install.js';
import type { TestDatabase } from '../support/sqlite-database.js';

export interface ReferenceServer {
  app: Application;
  url: string;
  stop(): Promise<void>;
}

/**
 * The reference service as `npm start` builds it (`createApp`, then `installOAuth`: signing keys
 * and a personal access client), on `database` (dropped by `stop()`) and a temporary storage
 * folder, served on a free loopback port. The app's URL is the server's real one, so the OAuth
 * issuer in the discovery document matches what clients connect to.
 */
export async function serveReferenceService(
  database: TestDatabase,
  overrides: DeepPartial<TollgateConfig> = {},
  options: { logger?: Logger; urlHost?: string } = {},
): Promise<ReferenceServer> {
  const storagePath = mkdtempSync(join(tmpdir(), 'tollgate-browser-'));
  // Listen first (port 0), then build the app with that URL: the server forwards to it once built.
  let target: Application | undefined;
  const forwarder = {
    fetch: (request: Request, env: unknown) =>
      target?.fetch(request, env) ?? new Response('starting', { status: 503 }),
  } as unknown as Application;
  const server: RunningServer = await listen(forwarder, '127.0.0.1', 0);
  // `localhost` for passkeys: an IP address cannot be a WebAuthn relying party id.
  const url = options.urlHost ? server.url.replace('127.0.0.1', options.urlHost) : server.url;
  const app = await createApp(
    {
      app: { env: 'test', url, key: '' },
      storagePath,
      database: { url: database.url },
      log: { level: process.env.TEST_LOG_LEVEL ?? 'silent' },
      routes: { cachePath: join(storagePath, 'routes.json') },
      ...overrides,
    },
    { logger: options.logger ?? createLogger(process.env.TEST_LOG_LEVEL ?? 'silent') },
  );
  await app.migrate();
  await installOAuth(app, { passwordClient: false });
  await app.boot();
  target = app;
  return {
    app,
    url,
    stop: async () => {
      await server.close();
      await closeBilling(app);
      await app.close();
      // pg's Pool.end() resolves before its sockets have closed; a `DROP DATABASE … WITH (FORCE)`
      // that lands first makes the closing client emit an unhandled 57P01. Let them finish.
      if (database.engine === 'postgres') await new Promise((done) => setTimeout(done, 200));
      await database.drop();
      rmSync(storagePath, { recursive: true, force: true });
    },
  };
}
