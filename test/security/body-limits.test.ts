import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ANY_ENGINE } from '../support/engines.js';
import { type ChildServer, type SentBody, sendLargeBody, startChildServer } from './child.js';

const MB = 1024 * 1024;
const FORM = 'application/x-www-form-urlencoded';

// The reference service in a child process: its memory is read from /proc/<pid>/status while
// bodies far over every limit arrive, on each route kind and on a path no route has.
describe('request body limits (413 before the body is buffered)', () => {
  let server: ChildServer;
  beforeAll(async () => {
    server = await startChildServer(ANY_ENGINE);
    // Warm up what is built lazily (JIT, the first form read), so the baseline is steady.
    for (let i = 0; i < 20; i++) {
      await fetch(`${server.url}/oauth/token`, {
        method: 'POST',
        headers: { 'content-type': FORM },
        body: 'grant_type=client_credentials&client_id=nobody',
      });
    }
  }, 120_000);
  afterAll(() => server?.stop());

  /**
   * Sends one body while sampling the child's RSS every 5 ms, until 500 ms after the answer (the
   * server reads and drops what the client still sends); the growth is the peak over the RSS before.
   */
  async function measured(send: () => Promise<SentBody>): Promise<SentBody & { growth: number }> {
    const baseline = server.rss();
    let peak = baseline;
    const sampler = setInterval(() => {
      peak = Math.max(peak, server.rss());
    }, 5);
    try {
      const answer = await send();
      await new Promise((done) => setTimeout(done, 500));
      peak = Math.max(peak, server.rss());
      return { ...answer, growth: peak - baseline };
    } finally {
      clearInterval(sampler);
    }
  }

  it('8 MB to /oauth/token, to a form POST on an unknown path and to a JSON API: 413 at once, memory flat', async () => {
    const size = 8 * MB;
    const json = 'application/json';
    const token = await measured(() =>
      sendLargeBody(`${server.url}/oauth/token`, { size, contentType: FORM }),
    );
    const unknown = await measured(() =>
      sendLargeBody(`${server.url}/no/such/path`, { size, contentType: FORM, chunked: true }),
    );
    const api = await measured(() =>
      sendLargeBody(`${server.url}/api/orders`, { size, contentType: json, headers: { accept: json } }),
    );
    const chunkedJson = await measured(() =>
      sendLargeBody(`${server.url}/oauth/clients`, { size, contentType: json, chunked: true }),
    );
    const answers = [token, unknown, api, chunkedJson];
    console.log(
      `413 after ${answers.map((a) => a.ms.toFixed(0)).join(' / ')} ms; ` +
        `server RSS growth ${answers.map((a) => (a.growth / MB).toFixed(1)).join(' / ')} MB`,
    );
    expect(token.status).toBe(413);
    expect(JSON.parse(token.body)).toEqual({
      error: 'invalid_request',
      error_description: 'The request body is too large.',
    });
    expect(unknown.status).toBe(413);
    expect(unknown.headers['content-type']).toContain('text/html');
    expect(unknown.body).toContain('at most 57344 bytes');
    expect(api.status).toBe(413);
    expect(JSON.parse(api.body)).toEqual({
      message: 'The request body is too large: this endpoint accepts at most 100000 bytes.',
    });
    expect(chunkedJson.status).toBe(413);
    for (const answer of answers) {
      expect(answer.ms).toBeLessThan(2_000);
      expect(answer.growth).toBeLessThan(20 * MB);
      expect(answer.headers['x-content-type-options']).toBe('nosniff');
    }
  });

  it('a spoofed form (_method) over the form limit is refused before its body is read', async () => {
    const res = await sendLargeBody(`${server.url}/oauth/clients/x`, { size: 2 * MB, contentType: FORM });
    expect(res.status).toBe(413);
  });

  it('bodies within their limit still arrive whole', async () => {
    // 56 KiB of form on the token endpoint: read, then refused for what it says, not for its size.
    const padding = 'x'.repeat(56 * 1024 - 200);
    const res = await fetch(`${server.url}/oauth/token`, {
      method: 'POST',
      headers: { 'content-type': FORM },
      body: `grant_type=client_credentials&client_id=nobody&pad=${padding}`,
    });
    expect(res.status).toBe(401);
    expect((await res.json()).error).toBe('invalid_client');
    // The webhook route takes up to 1 MB: a 600 kB unsigned event reaches the signature check.
    const hook = await fetch(`${server.url}/stripe/webhook`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ id: 'evt_x', type: 'ping', pad: 'x'.repeat(600_000) }),
    });
    expect(hook.status).toBe(400);
  });
});
