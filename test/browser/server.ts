import type { DeepPartial, TollgateConfig } from '../../src/core/config.js';
import type { Logger } from '../../src/core/logger.js';
import { Browser } from '../auth/browser.js';
import type { TestApp } from '../support/app.js';
import { createTestDatabase } from '../support/database.js';
import type { Engine } from '../support/engines.js';
import { type ReferenceServer, serveReferenceService } from './reference-server.js';

export type { ReferenceServer };

/** The reference service (see `serveReferenceService`) on a fresh database of the engine under test. */
export async function startReferenceServer(
  overrides: DeepPartial<TollgateConfig> = {},
  options: { logger?: Logger; engine?: Engine; urlHost?: string } = {},
): Promise<ReferenceServer> {
  return serveReferenceService(await createTestDatabase(options.engine), overrides, options);
}

/** A cookie-keeping form browser (no JavaScript) on the running server, its posts same-origin. */
export function browserOn(server: { url: string }): Browser {
  return new Browser({
    request: (path: string, init: RequestInit = {}) => {
      const headers = new Headers(init.headers);
      if (headers.has('origin')) headers.set('origin', server.url);
      return fetch(new URL(path, server.url), { ...init, headers });
    },
  } as unknown as TestApp);
}
