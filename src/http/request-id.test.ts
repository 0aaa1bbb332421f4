import type { AddressInfo } from 'node:net';
import { Writable } from 'node:stream';
import { serve } from '@hono/node-server';
import { describe, expect, it } from 'vitest';
import { Container } from '../core/container.js';
import { createLogger } from '../core/logger.js';
import { Router } from './router.js';

/** A logger whose lines the test reads back. */
function capturingLogger() {
  const lines: Record<string, unknown>[] = [];
  const sink = new Writable({
    write(chunk, _encoding, done) {
      lines.push(JSON.parse(String(chunk)));
      done();
    },
  });
  return { logger: createLogger('info', sink), lines };
}

/** A router whose routes log. */
function loggingApp() {
  const { http, lines } = loggingRouter();
  return { http: http.app, lines };
}

function loggingRouter() {
  const { logger, lines } = capturingLogger();
  const router = new Router();
  router.get('/hello', async () => {
    await Promise.resolve();
    logger.info('said hello');
    return 'hello';
  });
  router.get('/boom', () => {
    throw new Error('exploded');
  });
  router.get('/away', () => Response.redirect('http://x/hello', 302));
  router.get('/own-id', () => new Response('x', { headers: { 'X-Request-Id': 'set-by-the-route' } }));
  const app = router.commit(new Container(), logger);
  return { http: { app, router }, lines };
}

const TRACE_ID = '4bf92f3577b34da6a3ce929d0e0e4736';

describe('request ids', () => {
  it('a fresh id on every response, in every line logged while the request runs', async () => {
    const { http, lines } = loggingApp();
    const [a, b] = await Promise.all([
      http.fetch(new Request('http://x/hello')),
      http.fetch(new Request('http://x/hello')),
    ]);
    const ids = [a!.headers.get('x-request-id'), b!.headers.get('x-request-id')];
    expect(ids[0]).toMatch(/^[0-9a-f-]{36}$/);
    expect(ids[1]).not.toBe(ids[0]);
    expect(lines.map((line) => line.request_id).sort()).toEqual([...ids].sort());
  });

  it("keeps a client's or proxy's X-Request-Id when it is a plain token; replaces one that is not", async () => {
    const { http } = loggingApp();
    const idOf = async (given: string) =>
      (await http.fetch(new Request('http://x/hello', { headers: { 'x-request-id': given } }))).headers.get(
        'x-request-id',
      );
    expect(await idOf('lb-7f3a.01:2')).toBe('lb-7f3a.01:2');
    for (const bad of ['has space', 'x'.repeat(129), 'a"b<script>', '']) {
      expect(await idOf(bad)).toMatch(/^[0-9a-f-]{36}$/);
    }
  });

  it('takes the trace id of a W3C traceparent, so logs and traces name the request alike', async () => {
    const { http, lines } = loggingApp();
    const traced = await http.fetch(
      new Request('http://x/hello', { headers: { traceparent: `00-${TRACE_ID}-00f067aa0ba902b7-01` } }),
    );
    expect(traced.headers.get('x-request-id')).toBe(TRACE_ID);
    expect(lines[0]?.request_id).toBe(TRACE_ID);
    const zero = await http.fetch(
      new Request('http://x/hello', { headers: { traceparent: `00-${'0'.repeat(32)}-00f067aa0ba902b7-01` } }),
    );
    expect(zero.headers.get('x-request-id')).not.toBe('0'.repeat(32));
  });

  it('a server error names the request in its body and its log line, and nothing more', async () => {
    const { http, lines } = loggingApp();
    const res = await http.fetch(new Request('http://x/boom', { headers: { accept: 'application/json' } }));
    const id = res.headers.get('x-request-id');
    expect([res.status, await res.json()]).toEqual([500, { message: 'Server Error', request_id: id }]);
    expect(lines.find((line) => line.msg === 'unhandled error')?.request_id).toBe(id);
  });

  it('names a response whose headers are immutable (Response.redirect) too', async () => {
    const { http } = loggingApp();
    const res = await http.fetch(new Request('http://x/away'));
    expect([res.status, res.headers.get('location')]).toEqual([302, 'http://x/hello']);
    expect(res.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
  });

  it("reads the id and traceparent from Node's raw headers when served over a socket", async () => {
    const { http } = loggingApp();
    const server = serve({ fetch: http.fetch, port: 0, hostname: '127.0.0.1' });
    await new Promise((resolve) => server.once('listening', resolve));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hello`;
    try {
      const idOf = async (headers: Record<string, string>) =>
        (await fetch(url, { headers })).headers.get('x-request-id');
      expect(await idOf({ 'X-Request-Id': 'from-proxy-7' })).toBe('from-proxy-7');
      expect(await idOf({ Traceparent: `00-${TRACE_ID}-00f067aa0ba902b7-01` })).toBe(TRACE_ID);
      expect(await idOf({ 'x-request-id': 'not a token!' })).toMatch(/^[0-9a-f-]{36}$/);
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });

  it("served as listen() serves (its own response class), the id goes with the status line, the route's Response untouched", async () => {
    const { http, lines } = loggingRouter();
    const returned: Response[] = [];
    const fetch_ = async (request: Request, env: unknown) => {
      const res = await http.app.fetch(request, env);
      returned.push(res);
      return res;
    };
    const server = serve({
      fetch: fetch_,
      port: 0,
      hostname: '127.0.0.1',
      serverOptions: { ServerResponse: http.router.securityHeaders.serverResponse() },
    });
    await new Promise((resolve) => server.once('listening', resolve));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    try {
      const get = async (path: string, headers: Record<string, string> = {}) => {
        const res = await fetch(`${url}${path}`, { headers, redirect: 'manual' });
        return { res, body: await res.text() };
      };
      const hello = await get('/hello', { 'X-Request-Id': 'from-proxy-8' });
      expect([hello.res.status, hello.body, hello.res.headers.get('x-request-id')]).toEqual([
        200,
        'hello',
        'from-proxy-8',
      ]);
      expect(lines.at(-1)?.request_id).toBe('from-proxy-8');
      // @hono/node-server writes an untouched Response from its own fields, without a Headers.
      expect(returned.at(-1)?.headers.get('x-request-id')).toBeNull();
      const away = await get('/away');
      expect([away.res.status, away.res.headers.get('location')]).toEqual([302, 'http://x/hello']);
      expect(away.res.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
      // The request's id replaces one the route set itself (one field, not two).
      const own = await get('/own-id', { 'X-Request-Id': 'from-proxy-9' });
      expect(own.res.headers.get('x-request-id')).toBe('from-proxy-9');
      const boom = await get('/boom', { accept: 'application/json' });
      const id = boom.res.headers.get('x-request-id');
      expect([boom.res.status, JSON.parse(boom.body)]).toEqual([
        500,
        { message: 'Server Error', request_id: id },
      ]);
      expect(hello.res.headers.get('x-frame-options')).toBe('DENY');
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });

  it('a line logged outside any request has no request_id', () => {
    const { logger, lines } = capturingLogger();
    logger.info('at boot');
    expect(lines[0]).not.toHaveProperty('request_id');
  });
});
