import { describe, expect, it } from 'vitest';
import { Container } from '../core/container.js';
import { createLogger } from '../core/logger.js';
import { Router } from './router.js';

const limits = { default: 100, oauth: 50, forms: 60, webhooks: 1000 };

function app(declare: (router: Router) => void) {
  const router = new Router();
  router.bodyLimits = limits;
  declare(router);
  return router.commit(new Container(), createLogger('silent'));
}

/** A body of `size` bytes sent as a stream, so nothing announces its length. */
function streamed(size: number): ReadableStream<Uint8Array> {
  let left = size;
  return new ReadableStream({
    pull(controller) {
      if (left <= 0) return controller.close();
      const n = Math.min(16, left);
      left -= n;
      controller.enqueue(new Uint8Array(n).fill(97));
    },
  });
}

const post = (path: string, body: BodyInit, type: string, headers: Record<string, string> = {}) =>
  new Request(`http://x${path}`, {
    method: 'POST',
    body,
    headers: { 'content-type': type, ...headers },
    duplex: 'half',
  } as RequestInit);

describe('body limits before routing', () => {
  const echo = app((r) => {
    r.post('/json', async (c) => c.text(String((await c.req.text()).length)));
    r.post('/token', async (c) => c.text(String((await c.req.text()).length))).bodyLimit('oauth');
    r.post('/hook', async (c) => c.text(String((await c.req.text()).length))).bodyLimit('webhooks');
    r.put('/things/{id}', async (c) => c.text(`put ${(await c.req.parseBody()).a}`));
  });

  it('gives each route its declared limit, forms the forms limit and anything else the default', async () => {
    const form = 'application/x-www-form-urlencoded';
    expect((await echo.fetch(post('/json', 'x'.repeat(100), 'application/json'))).status).toBe(200);
    expect((await echo.fetch(post('/json', 'x'.repeat(101), 'application/json'))).status).toBe(413);
    expect((await echo.fetch(post('/json', 'x'.repeat(61), form))).status).toBe(413);
    expect((await echo.fetch(post('/token', 'x'.repeat(51), form))).status).toBe(413);
    expect(await (await echo.fetch(post('/hook', 'x'.repeat(999), 'application/json'))).text()).toBe('999');
    expect((await echo.fetch(post('/nowhere', 'x'.repeat(61), form))).status).toBe(413);
  });

  it('counts a streamed body while reading it, and still serves one within the limit whole', async () => {
    const big = await echo.fetch(
      post('/json', streamed(5000), 'application/json', { accept: 'application/json' }),
    );
    expect(big.status).toBe(413);
    expect(await big.json()).toEqual({
      message: 'The request body is too large: this endpoint accepts at most 100 bytes.',
    });
    expect(await (await echo.fetch(post('/json', streamed(100), 'application/json'))).text()).toBe('100');
  });

  it('refuses an oversized Content-Length unread, in RFC 6749 form on an oauth route', async () => {
    const res = await echo.fetch(
      post('/token', 'a=1', 'application/x-www-form-urlencoded', { 'content-length': '9999' }),
    );
    expect(res.status).toBe(413);
    expect(await res.json()).toEqual({
      error: 'invalid_request',
      error_description: 'The request body is too large.',
    });
  });

  it('spoofs the method only of a form within its limit', async () => {
    const form = 'application/x-www-form-urlencoded';
    expect(await (await echo.fetch(post('/things/1', '_method=PUT&a=b', form))).text()).toBe('put b');
    expect((await echo.fetch(post('/things/1', `_method=PUT&a=${'b'.repeat(60)}`, form))).status).toBe(413);
  });

  it('refuses an unknown limit kind when the routes are committed', () => {
    expect(() => app((r) => r.post('/x', (c) => c.text('')).bodyLimit('huge' as 'default'))).toThrow(
      'Unknown body limit "huge" (route POST /x); use one of: default, oauth, forms, webhooks.',
    );
  });
});

describe('a value the database refuses', () => {
  it('is a 400 without an error log, not a 500 with a stack trace', async () => {
    const lines: { level: number }[] = [];
    const router = new Router();
    router.get('/nul', () => {
      throw Object.assign(new Error('invalid byte sequence for encoding "UTF8": 0x00'), { code: '22021' });
    });
    const served = router.commit(
      new Container(),
      createLogger('debug', { write: (line: string) => void lines.push(JSON.parse(line)) }),
    );
    const res = await served.fetch(new Request('http://x/nul', { headers: { accept: 'application/json' } }));
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({ message: 'The request contains a value that cannot be stored.' });
    expect(lines.filter((line) => line.level >= 50)).toEqual([]);
  });
});

describe('security headers on every response', () => {
  const served = app((r) => {
    r.get('/page', (c) => c.html('<p>hi</p>'));
    r.get('/own', (c) =>
      c.text('own', 200, { 'Cache-Control': 'public, max-age=60', 'X-Frame-Options': 'SAMEORIGIN' }),
    );
    r.get('/away', () => Response.redirect('https://elsewhere.example/', 302));
    r.get('/boom', () => {
      throw new Error('boom');
    });
  });

  it.each(['/page', '/nowhere', '/away', '/boom'])('%s: CSP, nosniff, DENY, no-store', async (path) => {
    const res = await served.fetch(new Request(`http://x${path}`));
    expect(res.headers.get('content-security-policy')).toContain("default-src 'self'; script-src 'self';");
    expect(res.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    expect(res.headers.get('x-frame-options')).toBe('DENY');
    expect(res.headers.get('cache-control')).toBe('no-store');
  });

  it('keeps what a response sets itself', async () => {
    const res = await served.fetch(new Request('http://x/own'));
    expect(res.headers.get('cache-control')).toBe('public, max-age=60');
    expect(res.headers.get('x-frame-options')).toBe('SAMEORIGIN');
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
  });

  it('adds configured sources and refuses a source that would end its directive', () => {
    const router = new Router();
    router.useHttpConfig({ bodyLimits: limits, csp: { 'img-src': ['https://cdn.example'] } });
    expect(router.securityHeaders.contentSecurityPolicy).toContain(
      "img-src 'self' data: https://cdn.example;",
    );
    expect(() => router.securityHeaders.allow('script-src', "'self'; script-src *")).toThrow(
      'is not a CSP source',
    );
  });
});
