import { randomBytes } from 'node:crypto';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { DeepPartial, TollgateConfig } from '../../src/core/config.js';
import type { Application } from '../../src/kernel/application.js';
import { listen } from '../../src/kernel/server.js';
import { createTestApp } from '../support/app.js';
import type { Engine } from '../support/engines.js';

export const controllersRoot = join(import.meta.dirname, 'fixtures', 'controllers');

export interface ServedApp {
  app: Application;
  url: string;
  /** A real HTTP request to the served app. */
  fetch(path: string, init?: RequestInit): Promise<Response>;
  json(path: string, init?: RequestInit): Promise<unknown>;
  close(): Promise<void>;
}

/** A unique route-cache path that does not exist yet, so a stray `storage/routes.json` never leaks in. */
export function tempCachePath(): string {
  return join(tmpdir(), `tollgate-routes-${randomBytes(6).toString('hex')}.json`);
}

/** A booted test app with routes declared by `setup`, served on 127.0.0.1 on a free port. */
export async function serve(
  engine: Engine,
  setup: (app: Application) => void | Promise<void>,
  config: DeepPartial<TollgateConfig> = {},
): Promise<ServedApp> {
  const test = await createTestApp({
    engine,
    config: { routes: { cachePath: tempCachePath() }, ...config },
    setup: async (app) => {
      app.router.controllers.root = controllersRoot;
      await setup(app);
    },
  });
  const server = await listen(test.app, '127.0.0.1', 0);
  const doFetch = (path: string, init?: RequestInit) => fetch(`${server.url}${path}`, init);
  return {
    app: test.app,
    url: server.url,
    fetch: doFetch,
    json: async (path, init) => {
      const res = await doFetch(path, init);
      if (!res.ok) throw new Error(`${init?.method ?? 'GET'} ${path} → ${res.status}: ${await res.text()}`);
      return res.json();
    },
    close: async () => {
      await server.close();
      await test.close();
    },
  };
}

/** A controller that answers every resource action with what it received. */
export class PhotoController {
  index() {
    return { action: 'index' };
  }
  create() {
    return { action: 'create' };
  }
  store() {
    return { action: 'store' };
  }
  show(id: string) {
    return { action: 'show', id };
  }
  edit(id: string) {
    return { action: 'edit', id };
  }
  update(id: string, c: { req: { method: string } }) {
    return { action: 'update', id, method: c.req.method };
  }
  destroy(id: string) {
    return { action: 'destroy', id };
  }
}
