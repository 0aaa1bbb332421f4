import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DeepPartial, TollgateConfig } from '../../src/core/config.js';
import { Container } from '../../src/core/container.js';
import { createLogger } from '../../src/core/logger.js';
import { Router } from '../../src/http/index.js';
import { createTestApp } from '../support/app.js';
import { ENGINES } from '../support/engines.js';
import { controllersRoot, type ServedApp, serve, tempCachePath } from './support.js';

class InvokableController {
  invoke(id: string) {
    return { invoked: id };
  }
}

class ReturnsController {
  object() {
    return { kind: 'json' };
  }
  html() {
    return '<h1>hello</h1>';
  }
  raw() {
    return new Response('teapot', { status: 418, headers: { 'content-type': 'text/plain' } });
  }
  nothing() {}
}

// Issue item 2; spec rules 6 (single-action controllers) and 7 (controller strings and nesting).
describe.each(ENGINES)('controllers (%s)', (engine) => {
  let s: ServedApp;
  beforeAll(async () => {
    s = await serve(engine, (app) => {
      const r = app.router;
      r.middleware.alias('tag', (value = 'x') => async (c, next) => {
        await next();
        c.res.headers.append('x-tags', value);
      });
      r.get('/object', [ReturnsController, 'object']);
      r.get('/html', [ReturnsController, 'html']);
      r.get('/raw', [ReturnsController, 'raw']);
      r.get('/nothing', [ReturnsController, 'nothing']);
      r.get('/invokable/{id}', InvokableController).name('invokable');
      r.get('/string/{photo}', 'PhotoController@show');
      r.get('/string', 'PhotoController@index');
      r.get('/nested/{photo}', 'Admin/PhotoController@show');
      r.get('/backslash/{photo}', 'Admin\\PhotoController@show');
      r.get('/kebab/{month}', 'Reports/MonthlyReportController@show');
      r.get('/dashboard', 'ShowDashboard');
      r.group({ namespace: 'Admin', prefix: '/ns' }, (g) => {
        g.get('/{photo}', 'PhotoController@show');
      });
      r.get('/missing', 'NoSuchController@show');
    });
  });
  afterAll(() => s.close());

  it('turns return values into responses: object → JSON, string → HTML, Response as is', async () => {
    const json = await s.fetch('/object');
    expect(json.headers.get('content-type')).toContain('application/json');
    expect(await json.json()).toEqual({ kind: 'json' });
    const html = await s.fetch('/html');
    expect(html.headers.get('content-type')).toContain('text/html');
    expect(await html.text()).toBe('<h1>hello</h1>');
    const raw = await s.fetch('/raw');
    expect(raw.status).toBe(418);
    expect(await raw.text()).toBe('teapot');
    expect((await s.fetch('/nothing')).status).toBe(204);
  });

  it('rule 6: a single-action controller is referenced by class alone and its invoke method runs', async () => {
    expect(await s.json('/invokable/5')).toEqual({ invoked: '5' });
    expect(await s.json('/dashboard')).toEqual({ dashboard: true });
  });

  it('rule 7: string actions are relative to the controllers root and loaded on first use', async () => {
    expect(await s.json('/string/3')).toEqual({ controller: 'PhotoController', action: 'show', photo: '3' });
    expect(await (await s.fetch('/string')).text()).toBe('<p>photos from /string</p>');
  });

  it('rule 7: nested controllers use a prefix path, with / or \\, or a group namespace', async () => {
    const admin = { controller: 'Admin/PhotoController', action: 'show', photo: '9' };
    expect(await s.json('/nested/9')).toEqual(admin);
    expect(await s.json('/backslash/9')).toEqual(admin);
    expect(await s.json('/ns/9')).toEqual(admin);
  });

  it('finds kebab-case files and applies the loaded controller’s middleware', async () => {
    const res = await s.fetch('/kebab/2026-11');
    expect(await res.text()).toBe('report 2026-11');
    expect(res.headers.get('x-report')).toBe('2026-11');
    expect(res.headers.get('x-tags')).toBe('monthly');
  });

  it('an unknown string controller fails with a message naming it, without a stack for the client', async () => {
    const res = await s.fetch('/missing', { headers: { accept: 'application/json' } });
    expect(res.status).toBe(500);
    expect(await res.json()).toEqual({
      message: 'Server Error',
      request_id: res.headers.get('x-request-id'),
    });
    await expect(s.app.router.controllers.load('NoSuchController')).rejects.toThrow(
      /Controller "NoSuchController" is neither registered nor found/,
    );
  });

  it('takes the controllers root from config.routes.controllersPath', async () => {
    const config = { routes: { controllersPath: controllersRoot, cachePath: tempCachePath() } };
    const test = await createTestApp({
      engine,
      config: config as DeepPartial<TollgateConfig>,
      setup: (app) => void app.router.get('/p/{photo}', 'Admin/PhotoController@show'),
    });
    try {
      expect(test.app.router.controllers.root).toBe(controllersRoot);
      expect(await (await test.request('/p/1')).json()).toEqual({
        controller: 'Admin/PhotoController',
        action: 'show',
        photo: '1',
      });
    } finally {
      await test.close();
    }
  });

  it('registered controllers are found by name without a file', async () => {
    const test = await serve(engine, (app) => {
      app.router.controllers.register(InvokableController, 'Billing/Invoke');
      app.router.get('/x/{id}', 'Billing/Invoke');
      app.router.get('/y/{id}', 'Billing\\Invoke@invoke');
    });
    try {
      expect(await test.json('/x/1')).toEqual({ invoked: '1' });
      expect(await test.json('/y/2')).toEqual({ invoked: '2' });
    } finally {
      await test.close();
    }
  });

  it('a class action naming a missing method fails at boot, naming the controller and route', async () => {
    const router = new Router();
    router.get('/bad', [ReturnsController, 'nope']).name('bad');
    expect(() => router.commit(new Container(), createLogger('silent'))).toThrow(
      'ReturnsController has no method "nope" (route "bad" (GET /bad)).',
    );
  });
});
