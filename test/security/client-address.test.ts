import { randomUUID } from 'node:crypto';
import { request } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type OAuthTestApp, oauthApp } from '../oauth/support.js';
import { ENGINES } from '../support/engines.js';

/** A GET through the proxy (127.0.0.1) for a client it names in `X-Forwarded-For`. */
function proxiedGet(port: number, path: string, forwardedFor: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: '127.0.0.1',
        port,
        localAddress: '127.0.0.1',
        path,
        headers: { 'x-forwarded-for': forwardedFor },
      },
      (res) => {
        res.resume();
        res.on('end', () => resolve(res.statusCode ?? 0));
      },
    );
    req.on('error', reject);
    req.end();
  });
}

/**
 * One POST /oauth/token with a client that does not exist: a failed client authentication, one
 * attempt on `token.address`. Sent from `localAddress` (127.0.0.1 is the trusted proxy, 127.0.0.2
 * a client connecting directly), over real HTTP.
 */
function failedTokenRequest(port: number, localAddress: string, forwardedFor?: string): Promise<number> {
  const body = new URLSearchParams({
    grant_type: 'client_credentials',
    client_id: randomUUID(),
    client_secret: 'wrong',
  }).toString();
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: '127.0.0.1',
        port,
        localAddress,
        method: 'POST',
        path: '/oauth/token',
        headers: {
          'content-type': 'application/x-www-form-urlencoded',
          'content-length': Buffer.byteLength(body),
          ...(forwardedFor ? { 'x-forwarded-for': forwardedFor } : {}),
        },
      },
      (res) => {
        res.resume();
        res.on('end', () => resolve(res.statusCode ?? 0));
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

/** Per-address limits count by the client the trusted proxy names, and only a trusted proxy names one. */
describe.each(ENGINES)('the client address behind a trusted proxy (%s)', (engine) => {
  let t: OAuthTestApp;
  const send = (localAddress: string, forwardedFor?: string) =>
    failedTokenRequest(t.server.port, localAddress, forwardedFor);

  beforeAll(async () => {
    t = await oauthApp({
      engine,
      config: {
        http: { trustedProxies: ['127.0.0.1'] },
        oauth: { throttle: { token: { address: { points: 2, durationSeconds: 3600 } } } },
      },
    });
  });
  afterAll(async () => t?.stop());

  it('two clients behind the proxy have separate counters', async () => {
    const a = '203.0.113.1';
    const b = '203.0.113.2';
    expect([await send('127.0.0.1', a), await send('127.0.0.1', a), await send('127.0.0.1', a)]).toEqual([
      401, 401, 429,
    ]);
    // The proxy's other client is not locked out by the first one's failures.
    expect(await send('127.0.0.1', b)).toBe(401);
    // A hop the client wrote itself, left of the one the proxy appended, changes nothing.
    expect(await send('127.0.0.1', `198.51.100.9, ${a}`)).toBe(429);
  });

  it("a session records the client's address, not the proxy's", async () => {
    expect(await proxiedGet(t.server.port, '/login', '198.51.100.23')).toBe(200);
    const rows = await t.app.db.selectFrom('sessions').select('ip_address').execute();
    expect(rows.map((r) => r.ip_address)).toContain('198.51.100.23');
    expect(rows.map((r) => r.ip_address)).not.toContain('127.0.0.1');
  });

  it('an untrusted peer gains nothing by sending X-Forwarded-For', async () => {
    const spoofed = ['192.0.2.10', '192.0.2.11', '192.0.2.12', '192.0.2.13'];
    const statuses = [];
    for (const hop of spoofed) statuses.push(await send('127.0.0.2', hop));
    expect(statuses).toEqual([401, 401, 429, 429]);
  });
});
