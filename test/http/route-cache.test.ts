import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { run } from '../../src/cli/main.js';
import { RouteCacheError, type RouteCacheFile, type RouteListing, Router } from '../../src/http/index.js';
import { listen } from '../../src/kernel/server.js';
import { createApp, PingController, TokenController } from './fixtures/route-app.js';

const dir = mkdtempSync(join(tmpdir(), 'tollgate-route-cache-'));
const cachePath = join(dir, 'routes.json');

async function cli(...argv: string[]): Promise<{ code: number; out: string; err: string }> {
  const out: string[] = [];
  const err: string[] = [];
  const log = vi.spyOn(console, 'log').mockImplementation((...args) => void out.push(args.join(' ')));
  const write = vi.spyOn(process.stderr, 'write').mockImplementation((chunk) => {
    err.push(String(chunk));
    return true;
  });
  try {
    const code = await run(argv);
    // The CLI names the service it works on (APP_URL, database) on stderr; anything else there is a warning.
    return { code, out: out.join('\n'), err: err.join('').replace(/^tollgate: APP_URL .*\n/m, '') };
  } finally {
    log.mockRestore();
    write.mockRestore();
  }
}

/** Boots the fixture app the way `npm start` would, and serves it. */
async function served() {
  const app = await createApp();
  await app.boot();
  const server = await listen(app, '127.0.0.1', 0);
  return {
    app,
    get: (path: string) => fetch(`${server.url}${path}`),
    close: async () => {
      await server.close();
      await app.close();
    },
  };
}

// Issue item 8; spec rule 10: closures cannot be cached; the cache is generated and cleared by commands.
describe('route cache (rule 10)', () => {
  beforeAll(() => {
    vi.stubEnv('TOLLGATE_APP', join(import.meta.dirname, 'fixtures', 'route-app.ts'));
    vi.stubEnv('ROUTE_APP_DIR', dir);
  });
  afterEach(() => {
    vi.stubEnv('ROUTE_APP_EXTRA', '');
    vi.stubEnv('ROUTE_APP_CLOSURE', '');
  });
  afterAll(() => {
    vi.unstubAllEnvs();
    rmSync(dir, { recursive: true, force: true });
  });

  it('route:cache writes the compiled table as JSON, controllers by their registered names', async () => {
    const result = await cli('route:cache');
    expect(result.err).toBe('');
    expect(result.code).toBe(0);
    expect(result.out).toContain(`Routes cached: 5 routes written to ${cachePath}.`);
    const file = JSON.parse(readFileSync(cachePath, 'utf8')) as RouteCacheFile;
    expect(file.version).toBe(1);
    expect(file.routes).toEqual([
      {
        methods: ['GET', 'HEAD'],
        path: '/oauth/tokens',
        name: 'oauth.tokens.index',
        action: 'OAuth/TokenController@index',
        middleware: ['tag:group'],
        wheres: {},
      },
      {
        methods: ['GET', 'HEAD'],
        path: '/oauth/tokens/{token}',
        name: 'oauth.tokens.show',
        action: 'OAuth/TokenController@show',
        middleware: ['tag:group'],
        wheres: { token: '[0-9]+' },
      },
      {
        methods: ['GET', 'HEAD'],
        path: '/ping',
        name: 'ping',
        action: 'PingController',
        middleware: [],
        wheres: {},
      },
      {
        methods: ['GET', 'HEAD'],
        path: '/photos',
        name: 'photos.index',
        action: 'PhotoController@index',
        middleware: [],
        wheres: {},
      },
      {
        methods: ['GET', 'HEAD'],
        path: '/photos/{photo}',
        name: 'photos.show',
        action: 'PhotoController@show',
        middleware: [],
        wheres: {},
      },
    ]);
  });

  it('boot serves the cached table; a route declared after caching does not appear until rebuilt', async () => {
    await cli('route:cache');
    vi.stubEnv('ROUTE_APP_EXTRA', '1');
    const before = await served();
    try {
      expect(before.app.router.cachedFrom).toBe(cachePath);
      expect((await before.get('/late/5')).status).toBe(404);
      expect(before.app.router.has('late')).toBe(false);
      const token = await before.get('/oauth/tokens/12');
      expect(await token.json()).toEqual({ token: '12' });
      // Route, group and controller middleware survive the cache: group → controller on the way in.
      expect(token.headers.get('x-tags')).toBe('controller, group');
      expect((await before.get('/oauth/tokens/abc')).status).toBe(404);
      expect(await (await before.get('/ping')).text()).toBe('pong');
      expect(await (await before.get('/photos/3')).json()).toEqual({
        controller: 'PhotoController',
        action: 'show',
        photo: '3',
      });
      expect(before.app.router.url('oauth.tokens.show', { token: 12 })).toBe('/oauth/tokens/12');
    } finally {
      await before.close();
    }
    expect((await cli('route:cache')).out).toContain('6 routes');
    const after = await served();
    try {
      expect(after.app.router.cachedFrom).toBe(cachePath);
      expect(await (await after.get('/late/5')).json()).toEqual({
        controller: 'Admin/PhotoController',
        action: 'show',
        photo: '5',
      });
    } finally {
      await after.close();
    }
  });

  it('route:clear removes the cache; boot evaluates the declarations again', async () => {
    await cli('route:cache');
    expect(existsSync(cachePath)).toBe(true);
    const cleared = await cli('route:clear');
    expect(cleared.out).toBe(`Route cache cleared (${cachePath}).`);
    expect(existsSync(cachePath)).toBe(false);
    expect((await cli('route:clear')).out).toBe(`No route cache at ${cachePath}.`);
    vi.stubEnv('ROUTE_APP_EXTRA', '1');
    const app = await served();
    try {
      expect(app.app.router.cachedFrom).toBeUndefined();
      expect(app.app.router.has('late')).toBe(true);
    } finally {
      await app.close();
    }
  });

  it('a closure route makes route:cache fail with a message naming the route', async () => {
    vi.stubEnv('ROUTE_APP_CLOSURE', '1');
    const result = await cli('route:cache');
    expect(result.code).toBe(1);
    expect(result.err).toContain('The routes cannot be cached:');
    expect(result.err).toContain('route "closure.route" (GET /closure) uses a closure action');
    expect(existsSync(cachePath)).toBe(false);
  });

  it('names every uncacheable route: closures, unregistered controllers, closure middleware', () => {
    const router = new Router();
    router.controllers.register(TokenController).register(PingController, 'Ping');
    router.get('/a', () => 'a').name('a');
    router.get('/b', [class Unregistered {}, 'show']);
    router.get('/c', [TokenController, 'show']).middleware(async (_c, next) => next());
    router.get('/ok', [TokenController, 'show']);
    router.get('/ping', PingController);
    let error: unknown;
    try {
      router.toCache();
    } catch (err) {
      error = err;
    }
    expect(error).toBeInstanceOf(RouteCacheError);
    expect((error as RouteCacheError).problems).toEqual([
      'route "a" (GET /a) uses a closure action; use a controller instead',
      'route GET /b uses controller Unregistered, which is not registered (router.controllers.register(Unregistered))',
      'route GET /c has closure middleware; register it as an alias instead',
    ]);
  });

  it("keeps a route's body limit through the cache", () => {
    const router = new Router();
    router.controllers.register(TokenController);
    router.post('/hook', [TokenController, 'show']).bodyLimit('webhooks');
    const file = router.toCache(new Date('2026-01-15T12:00:00Z'));
    expect(file.routes[0]).toMatchObject({ path: '/hook', bodyLimit: 'webhooks' });
    const reloaded = new Router().useCache(file);
    expect(reloaded.routes[0]!.bodyLimitKind).toBe('webhooks');
  });

  it('route:list prints verb, path, name, action and middleware as a table, and as JSON', async () => {
    await cli('route:clear');
    const table = await cli('route:list');
    expect(table.code).toBe(0);
    const lines = table.out.split('\n');
    expect(lines[0]).toMatch(/^Method\s+URI\s+Name\s+Action\s+Middleware$/);
    expect(lines.find((l) => l.includes('/oauth/tokens/{token}'))).toMatch(
      /^GET\|HEAD\s+\/oauth\/tokens\/\{token\}\s+oauth\.tokens\.show\s+OAuth\/TokenController@show\s+tag:group, tag:controller$/,
    );
    expect(table.out).toContain('5 routes.');
    const json = await cli('route:list', '--json', '--name', 'photos');
    expect(JSON.parse(json.out) as RouteListing[]).toEqual([
      {
        methods: ['GET', 'HEAD'],
        path: '/photos',
        name: 'photos.index',
        action: 'PhotoController@index',
        middleware: [],
      },
      {
        methods: ['GET', 'HEAD'],
        path: '/photos/{photo}',
        name: 'photos.show',
        action: 'PhotoController@show',
        middleware: [],
      },
    ]);
    await cli('route:cache');
    expect((await cli('route:list')).out).toContain(`5 routes (from the route cache ${cachePath}).`);
  });
});
