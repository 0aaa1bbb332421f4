import { Hono } from 'hono';
import { describe, expect, it } from 'vitest';
import { requestHeader } from './request-header.js';

const app = new Hono().get('/', (c) => c.json({ value: requestHeader(c, 'authorization') ?? null }));
const read = async (init: RequestInit, env?: unknown) =>
  ((await (await app.request('/', init, env)).json()) as { value: string | null }).value;

describe('requestHeader', () => {
  it("reads Node's raw header list as Headers.get would: any case, repeated fields joined", async () => {
    const node = (rawHeaders: string[]) => ({ incoming: { rawHeaders } });
    expect(await read({}, node(['Host', 'x', 'Authorization', 'Bearer a']))).toBe('Bearer a');
    expect(await read({}, node(['AUTHORIZATION', 'Bearer a', 'authorization', 'Bearer b']))).toBe(
      'Bearer a, Bearer b',
    );
    expect(await read({}, node(['Host', 'x']))).toBeNull();
  });

  it('is c.req.header without a Node request', async () => {
    expect(await read({ headers: { Authorization: 'Bearer a' } })).toBe('Bearer a');
    expect(await read({})).toBeNull();
  });
});
