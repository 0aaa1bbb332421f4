import type { Context, MiddlewareHandler } from 'hono';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Container } from '../../src/core/container.js';
import { createLogger } from '../../src/core/logger.js';
import { Router } from '../../src/http/index.js';
import { ENGINES } from '../support/engines.js';
import { type ServedApp, serve } from './support.js';

/** Appends its label to `x-trail` on the way in, so the header shows the order middleware ran in. */
const mark =
  (label: string): MiddlewareHandler =>
  async (c, next) => {
    c.header('x-trail', label, { append: true });
    await next();
  };

const trail = (res: Response) => (res.headers.get('x-trail') ?? '').split(/,\s*/).filter(Boolean);

class AccountController {
  static middleware = [
    'mark:controller-all',
    { use: 'mark:controller-only-show', only: ['show'] },
    { use: ['mark:controller-except-show'], except: ['show'] },
    { use: mark('controller-closure'), only: ['update'] },
  ];
  show() {
    return 'show';
  }
  update() {
    return 'update';
  }
  index() {
    return 'index';
  }
}

// Issue item 4; spec rule 8: per route, aliases with parameters, groups, controller only/except, closures.
describe.each(ENGINES)('middleware (rule 8) (%s)', (engine) => {
  let s: ServedApp;
  beforeAll(async () => {
    s = await serve(engine, (app) => {
      const r = app.router;
      r.middleware.alias('mark', (label = '?') => mark(label));
      r.middleware.alias('scopes', (...scopes) => async (c, next) => {
        await next();
        c.res.headers.set('x-scopes', JSON.stringify(scopes));
      });
      r.middleware.alias('deny', () => async (c) => c.json({ message: 'denied' }, 403));
      // Declared before the groups are filled: `web` and `api` exist from the start.
      r.get('/web', () => 'web').middleware('web');
      r.get('/api', () => ({ api: true })).middleware('api');
      r.get('/scoped', () => 'ok').middleware('scopes:orders:read,orders:write');
      r.get('/closure', () => 'ok').middleware(async (c: Context, next: () => Promise<void>) => {
        c.header('x-closure', 'ran');
        await next();
      });
      r.get('/denied', () => 'never').middleware('deny');
      r.group({ middleware: ['mark:group'] }, (g) => {
        g.get('/accounts/{id}', [AccountController, 'show']).middleware('mark:route');
        g.put('/accounts/{id}', [AccountController, 'update']).middleware('mark:route');
        g.get('/accounts', [AccountController, 'index']).middleware('mark:route');
      });
      r.middleware.appendToGroup('web', 'mark:web-1', 'mark:web-2');
      r.middleware.appendToGroup('api', mark('api'));
    });
  });
  afterAll(() => s.close());

  it('passes alias parameters after the colon as a list', async () => {
    const res = await s.fetch('/scoped');
    expect(JSON.parse(res.headers.get('x-scopes')!)).toEqual(['orders:read', 'orders:write']);
  });

  it('runs the predefined web and api groups as filled later', async () => {
    expect(trail(await s.fetch('/web'))).toEqual(['web-1', 'web-2']);
    expect(trail(await s.fetch('/api'))).toEqual(['api']);
  });

  it('runs a closure (c, next) middleware', async () => {
    expect((await s.fetch('/closure')).headers.get('x-closure')).toBe('ran');
  });

  it('lets a middleware answer without reaching the action', async () => {
    const res = await s.fetch('/denied');
    expect(res.status).toBe(403);
    expect(await res.json()).toEqual({ message: 'denied' });
  });

  it('runs group → route → controller, with controller only/except', async () => {
    expect(trail(await s.fetch('/accounts/1'))).toEqual([
      'group',
      'route',
      'controller-all',
      'controller-only-show',
    ]);
    expect(trail(await s.fetch('/accounts', {}))).toEqual([
      'group',
      'route',
      'controller-all',
      'controller-except-show',
    ]);
    expect(trail(await s.fetch('/accounts/1', { method: 'PUT' }))).toEqual([
      'group',
      'route',
      'controller-all',
      'controller-except-show',
      'controller-closure',
    ]);
  });

  it('an unknown middleware fails at boot, naming the route', () => {
    const router = new Router();
    router
      .get('/x', () => 'x')
      .name('x')
      .middleware('nope:1');
    expect(() => router.commit(new Container(), createLogger('silent'))).toThrow(
      'Unknown middleware "nope" (from "nope:1") (route "x" (GET /x)).',
    );
  });
});
