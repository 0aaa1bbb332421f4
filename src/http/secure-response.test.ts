import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { secureServerResponse, takesPresetHeaders } from './secure-response.js';

const DEFAULTS = [
  ['x-frame-options', 'DENY'],
  ['cache-control', 'no-store'],
] as const;

// Each path answers the way some writer does: @hono/node-server (one writeHead with an object),
// Node's own implicit head (setHeader, then end), an array of headers, a status line alone.
const answers: Record<string, (res: ServerResponse) => void> = {
  '/object': (res) => res.writeHead(200, { 'Content-Type': 'application/json' }).end('{}'),
  '/own-cache': (res) => res.writeHead(200, { 'Cache-Control': 'public, max-age=60' }).end('x'),
  '/set-header': (res) => {
    res.setHeader('cache-control', 'private');
    res.setHeader('x-set', '1');
    res.end('x');
  },
  '/array': (res) => res.writeHead(200, ['X-Array', 'a', 'X-Frame-Options', 'SAMEORIGIN']).end('x'),
  '/reason': (res) => res.writeHead(201, 'Made', { 'X-Made': 'yes' }).end(),
  '/bare': (res) => res.writeHead(204).end(),
  '/preset': (res) => {
    preset(res, 'ratelimit', '"plan";r=9;t=60');
    res.writeHead(200, { 'Content-Type': 'text/plain' }).end('x');
  },
  '/preset-own': (res) => {
    preset(res, 'ratelimit', '"plan";r=9;t=60');
    res.writeHead(429, { RateLimit: '"plan";r=0;t=60' }).end('x');
  },
  '/id': (res) => {
    named(res, 'req-1');
    res.writeHead(200, { 'Content-Type': 'text/plain' }).end('x');
  },
  '/id-own': (res) => {
    named(res, 'req-2');
    res.writeHead(200, { 'X-Request-Id': 'own' }).end('x');
  },
  '/id-array': (res) => {
    named(res, 'req-3');
    res.writeHead(200, ['X-Request-Id', 'own', 'X-Array', 'a']).end('x');
  },
  '/id-set-header': (res) => {
    named(res, 'req-4');
    res.setHeader('x-request-id', 'own');
    res.end('x');
  },
  '/preset-set-header': (res) => {
    preset(res, 'ratelimit', '"plan";r=9;t=60');
    res.setHeader('x-set', '1');
    res.end('x');
  },
};

function named(res: ServerResponse, id: string): void {
  if (!takesPresetHeaders(res)) throw new Error('not a response of secureServerResponse');
  res.requestId(id);
}

function preset(res: ServerResponse, name: string, value: string): void {
  if (!takesPresetHeaders(res)) throw new Error('not a response of secureServerResponse');
  res.presetHeaders([name, value]);
}

describe('secureServerResponse', () => {
  let url: string;
  const server = createServer(
    { ServerResponse: secureServerResponse({ entries: () => DEFAULTS }) },
    (req, res) => answers[req.url!]!(res),
  );
  beforeAll(async () => {
    await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((done) => server.close(() => done())));

  const head = async (path: string) => {
    const res = await fetch(`${url}${path}`);
    await res.arrayBuffer();
    return res;
  };

  it('adds every default to a response that sets none of them', async () => {
    for (const path of ['/object', '/bare']) {
      const res = await head(path);
      expect(res.headers.get('x-frame-options'), path).toBe('DENY');
      expect(res.headers.get('cache-control'), path).toBe('no-store');
    }
    expect((await head('/object')).headers.get('content-type')).toBe('application/json');
  });

  it('lets a header the response sets itself win, whichever way it sets it', async () => {
    const own = await head('/own-cache');
    expect(own.headers.get('cache-control')).toBe('public, max-age=60');
    expect(own.headers.get('x-frame-options')).toBe('DENY');
    const set = await head('/set-header');
    expect(set.headers.get('cache-control')).toBe('private');
    expect(set.headers.get('x-set')).toBe('1');
    expect(set.headers.get('x-frame-options')).toBe('DENY');
    const array = await head('/array');
    expect(array.headers.get('x-frame-options')).toBe('SAMEORIGIN');
    expect(array.headers.get('x-array')).toBe('a');
    expect(array.headers.get('cache-control')).toBe('no-store');
  });

  it('keeps a status message given with the headers', async () => {
    const res = await head('/reason');
    expect([res.status, res.statusText, res.headers.get('x-made')]).toEqual([201, 'Made', 'yes']);
    expect(res.headers.get('cache-control')).toBe('no-store');
  });

  it("writes a response's preset headers with the defaults, unless the response sets them itself", async () => {
    for (const path of ['/preset', '/preset-set-header']) {
      const res = await head(path);
      expect(res.headers.get('ratelimit'), path).toBe('"plan";r=9;t=60');
      expect(res.headers.get('cache-control'), path).toBe('no-store');
    }
    const own = await head('/preset-own');
    expect([own.status, own.headers.get('ratelimit')]).toEqual([429, '"plan";r=0;t=60']);
    expect((await head('/object')).headers.get('ratelimit')).toBeNull();
  });

  it("writes the request's id with the status line, over any X-Request-Id the response sets itself", async () => {
    const expected = { '/id': 'req-1', '/id-own': 'req-2', '/id-array': 'req-3', '/id-set-header': 'req-4' };
    for (const [path, id] of Object.entries(expected)) {
      const res = await head(path);
      // One field: two would read back joined ("own, req-2").
      expect(res.headers.get('x-request-id'), path).toBe(id);
      expect(res.headers.get('x-frame-options'), path).toBe('DENY');
    }
    expect((await head('/id-array')).headers.get('x-array')).toBe('a');
    expect((await head('/object')).headers.get('x-request-id')).toBeNull();
  });
});
