// Baseline: a Hono route that verifies an RS256 JWT with `jose` on every request and nothing
// else — the ceiling for a protected route when every request brings a token never seen before.

import { Hono } from 'hono';
import { generateKeyPair, jwtVerify, SignJWT } from 'jose';
import { serveHono } from './announce.js';

const count = Number(process.env.BENCH_TOKENS ?? 12_000);
const { privateKey, publicKey } = await generateKeyPair('RS256');
const now = Math.floor(Date.now() / 1000);
const tokens: string[] = [];
for (let i = 0; i < count; i++) {
  tokens.push(
    await new SignJWT({ scopes: ['check-status'] })
      .setProtectedHeader({ alg: 'RS256', typ: 'at+jwt' })
      .setIssuer('http://127.0.0.1')
      .setAudience('bench')
      .setSubject(String(i))
      .setJti(`token-${i}`)
      .setIssuedAt(now)
      .setExpirationTime(now + 3600)
      .sign(privateKey),
  );
}

const app = new Hono();
app.get('/verify', async (c) => {
  const header = c.req.header('authorization') ?? '';
  if (!header.startsWith('Bearer ')) return c.json({ message: 'Unauthenticated.' }, 401);
  try {
    const { payload } = await jwtVerify(header.slice(7), publicKey, {
      algorithms: ['RS256'],
      issuer: 'http://127.0.0.1',
      audience: 'bench',
    });
    return c.json({ ok: true, sub: payload.sub });
  } catch {
    return c.json({ message: 'Unauthenticated.' }, 401);
  }
});
serveHono(app, { path: '/verify', tokens });
