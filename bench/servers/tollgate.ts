// Tollgate's reference service (app/bootstrap.ts), booted on the database in DATABASE_URL and
// seeded for one scenario (BENCH_SCENARIO):
//   protected          GET /bench/protected behind `auth:api` + `scopes:check-status`, with
//                      one personal access token, reused
//   protected_metered  the same route and token with a plan declared (issue 17): every call
//                      counted against the plan's per-user rate limit (leased from the database
//                      store) and metered into api_usage_daily
//   protected_dpop     the same route with one DPoP-bound token (password grant with a proof);
//                      the load sends a new proof by its key with every request (RFC 9449)
//   protected_new      the same route with BENCH_TOKENS (default 60,000) distinct tokens: more
//                      (with BENCH_USERS, the tokens of that many users, bulk-loaded in SQL)
//                      than the guard's 10,000-entry verified-token cache, so a client cycling
//                      through them never presents one the guard still holds verified
//   client_credentials a confidential client for POST /oauth/token (and BENCH_CLIENTS more)
//   password           a password-grant client and a user
//   refresh            the same, and BENCH_SESSIONS refresh tokens from the password grant, one
//                      rotating chain per connection of the load
//   authorization_code a client, a user, and one logged-in session per connection
// The signing algorithm comes from OAUTH_SIGNING_ALG; keys are generated per process.
// BENCH_PRELOAD_ROWS (and BENCH_PRELOAD_EXPIRED=1) first bulk-load that many access-token rows.
import { generateKeyPairSync, randomBytes } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { join } from 'node:path';
import { BatchSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { type Application, authProvider, listen, oauthProvider, startTracing, Users } from 'tollgate';
import {
  type AccessTokenRecord,
  AccessTokenSigner,
  Clients,
  installKeys,
  PersonalAccessTokens,
} from 'tollgate/oauth';
import { createApp } from '../../app/bootstrap.js';
import { dpopProofs } from '../lib/dpop-proof.js';
import { announce, exitOnSigterm } from './announce.js';
import { authorizationRequest } from './authorization-request.js';
import { preloadAccessTokens } from './preload.js';
import { logIn } from './tollgate-session.js';

const scenario = process.env.BENCH_SCENARIO ?? 'protected';
const sessions = Number(process.env.BENCH_SESSIONS ?? Number(process.env.BENCH_CONNECTIONS ?? 10) * 2);
// A separate key folder per process: the scenarios use different algorithms on one database.
process.env.STORAGE_PATH = mkdtempSync(join(process.env.STORAGE_PATH ?? '/tmp', 'keys-'));

// The reference service declares plans (app/config.ts); the scenarios run without them, but for
// protected_metered: a plan whose limit the load never reaches, so the limit and the metering run
// on every request.
const metered = {
  plans: { definitions: { free: { rateLimit: { requests: 1_000_000_000, per: 'minute' as const } } } },
};
// BENCH_TRACING=1: the SDK registered before the application compiles its routes, spans dropped
// by the exporter (the cost measured is making and processing them, not a network).
if (process.env.BENCH_TRACING === '1') {
  await startTracing({
    spanProcessors: [
      new BatchSpanProcessor({
        export: (_spans, done) => done({ code: 0 }), // ExportResultCode.SUCCESS
        shutdown: async () => {},
      }),
    ],
  });
}
const app = await createApp(scenario === 'protected_metered' ? metered : { plans: { definitions: {} } });
// Until the reference service wires them itself, add the modules the scenarios need.
const has = (name: string) => app.providers.some((provider) => provider.name === name);
if (!has('auth')) await app.register(authProvider());
if (!has('oauth')) await app.register(oauthProvider());
if (scenario.startsWith('protected')) {
  await app.register({
    name: 'bench.routes',
    register: ({ router }) => {
      router
        .get('/bench/protected', (c) => c.json({ ok: true }))
        .middleware('auth:api', 'scopes:check-status');
    },
  });
}
installKeys(app.config.storagePath, app.config.oauth.signingAlgorithm);
await app.migrate();
await preloadAccessTokens(
  app,
  Number(process.env.BENCH_PRELOAD_ROWS ?? 0),
  process.env.BENCH_PRELOAD_EXPIRED === '1',
);
await app.boot();
const server = await listen(app, '127.0.0.1', 0);
exitOnSigterm(() => server.close());

const password = 'correct horse battery staple';
const user = await app.container
  .make(Users)
  .create({ name: 'Bench', email: `bench-${process.pid}-${Date.now()}@example.test`, password });
const clients = app.container.make(Clients);

// Inside a function of its own: a temporary of the module's top-level await stays reachable from
// the module after it finished (measured: all 60,000 tokens, 48 MiB, were still live under load).
const announceFixtures = async () => announce({ port: server.port, fixtures: await fixtures(app) });
await announceFixtures();

async function fixtures(app: Application): Promise<Record<string, unknown>> {
  switch (scenario) {
    case 'protected':
    case 'protected_metered': {
      await clients.create({
        name: 'Personal Access Client',
        redirect: 'http://localhost',
        personalAccess: true,
      });
      const token = await app.container.make(PersonalAccessTokens).create(user.id, 'bench', ['check-status']);
      return { path: '/bench/protected', tokens: [token.accessToken] };
    }
    case 'protected_new':
      return { path: '/bench/protected', tokens: await distinctTokens(app) };
    case 'protected_dpop':
      return dpopBound();
    case 'client_credentials': {
      const { client, plainSecret } = await clients.create({ name: 'Bench service', redirect: '' });
      // BENCH_CLIENTS more clients, for a load that takes turns between them (cost as work grows).
      const many = [];
      for (let i = 0; i < Number(process.env.BENCH_CLIENTS ?? 0); i++) {
        const made = await clients.create({ name: `Bench service ${i}`, redirect: '' });
        many.push({ id: made.client.id, secret: made.plainSecret! });
      }
      await firstContact(many);
      return { clientId: client.id, clientSecret: plainSecret, clients: many };
    }
    case 'password': {
      const { client, plainSecret } = await clients.create({
        name: 'Bench app',
        redirect: '',
        password: true,
      });
      return { clientId: client.id, clientSecret: plainSecret, username: user.email, password };
    }
    case 'refresh': {
      const { client, plainSecret } = await clients.create({
        name: 'Bench app',
        redirect: '',
        password: true,
      });
      const refreshTokens = [];
      for (let i = 0; i < sessions; i++) {
        refreshTokens.push(await passwordGrantRefreshToken(client.id, plainSecret!, user.email, password));
      }
      return { clientId: client.id, clientSecret: plainSecret, refreshTokens, tokenPath: '/oauth/token' };
    }
    case 'authorization_code': {
      const redirectUri = 'http://127.0.0.1:9/callback';
      const { client, plainSecret } = await clients.create({ name: 'Bench web app', redirect: redirectUri });
      const { authorizePath, codeVerifier, state } = authorizationRequest(
        '/oauth/authorize',
        client.id,
        redirectUri,
      );
      const logged = [];
      for (let i = 0; i < sessions; i++)
        logged.push(await logIn(server.url, user.email, password, authorizePath));
      return {
        clientId: client.id,
        clientSecret: plainSecret,
        redirectUri,
        codeVerifier,
        state,
        authorizePath,
        origin: server.url,
        sessions: logged,
      };
    }
    default:
      throw new Error(`unknown BENCH_SCENARIO ${scenario}`);
  }
}

async function passwordGrantRefreshToken(
  clientId: string,
  secret: string,
  username: string,
  password: string,
): Promise<string> {
  const res = await fetch(`${server.url}/oauth/token`, {
    method: 'POST',
    headers: {
      'content-type': 'application/x-www-form-urlencoded',
      authorization: `Basic ${Buffer.from(`${clientId}:${secret}`).toString('base64')}`,
    },
    body: new URLSearchParams({ grant_type: 'password', username, password, scope: 'check-status' }),
  });
  const body = (await res.json()) as { refresh_token?: string };
  if (!body.refresh_token) throw new Error(`no refresh token: ${res.status} ${JSON.stringify(body)}`);
  return body.refresh_token;
}

/**
 * One token request per client before the load, as a server that has served them before: the
 * token endpoint's throttle counts a client's first credentials as a possible guess (six
 * rate-limit statements) until they succeed, then skips its counters for them. Without this, a
 * slow run (120 tokens/s on PostgreSQL) measured nothing but first contacts with 1,000 clients,
 * a fast one a share that depended on its own rate; the rows are about the client cache.
 */
async function firstContact(many: { id: string; secret: string }[]): Promise<void> {
  let next = 0;
  const worker = async () => {
    for (let i = next++; i < many.length; i = next++) {
      const res = await fetch(`${server.url}/oauth/token`, {
        method: 'POST',
        headers: {
          'content-type': 'application/x-www-form-urlencoded',
          authorization: `Basic ${Buffer.from(`${many[i]!.id}:${many[i]!.secret}`).toString('base64')}`,
        },
        body: new URLSearchParams({ grant_type: 'client_credentials', scope: 'check-status' }),
      });
      if (res.status !== 200) throw new Error(`client_credentials failed: ${res.status} ${await res.text()}`);
    }
  };
  await Promise.all(Array.from({ length: 10 }, worker));
}

/** A DPoP-bound user token from the token endpoint, and the key the load signs its proofs with. */
async function dpopBound(): Promise<Record<string, unknown>> {
  const { client, plainSecret } = await clients.create({
    name: 'Bench DPoP app',
    redirect: '',
    password: true,
  });
  const keys = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  const privateKeyPem = keys.privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
  const { kty, crv, x, y } = keys.publicKey.export({ format: 'jwk' }) as Record<string, string>;
  const jwk = { kty: kty!, crv: crv!, x: x!, y: y! };
  const tokenUrl = `${server.url}/oauth/token`;
  const res = await fetch(tokenUrl, {
    method: 'POST',
    headers: {
      'content-type': 'application/x-www-form-urlencoded',
      authorization: `Basic ${Buffer.from(`${client.id}:${plainSecret}`).toString('base64')}`,
      dpop: dpopProofs(privateKeyPem, jwk)('POST', tokenUrl),
    },
    body: new URLSearchParams({
      grant_type: 'password',
      username: user.email,
      password,
      scope: 'check-status',
    }),
  });
  const body = (await res.json()) as { access_token?: string; token_type?: string };
  if (body.token_type !== 'DPoP') throw new Error(`no DPoP token: ${res.status} ${JSON.stringify(body)}`);
  return { path: '/bench/protected', origin: server.url, token: body.access_token, privateKeyPem, jwk };
}

/**
 * Many distinct valid tokens without as many rows: each of a few stored tokens is signed again
 * with a different `iat`, by the application's own signer. Each string is new to the guard (its
 * signature is verified), while the revocation check finds a real row.
 */
async function distinctTokens(app: Application): Promise<string[]> {
  const { client: personal } = await clients.create({
    name: 'Personal Access Client',
    redirect: 'http://localhost',
    personalAccess: true,
  });
  const users = Number(process.env.BENCH_USERS ?? 0);
  const rows: Pick<AccessTokenRecord, 'id' | 'userId' | 'clientId' | 'scopes'>[] =
    users > 0 ? await tokensOfManyUsers(app, users, personal.id) : [];
  const pats = app.container.make(PersonalAccessTokens);
  for (let i = 0; users === 0 && i < 10; i++) {
    rows.push((await pats.create(user.id, `bench ${i}`, ['check-status'])).token);
  }
  const signer = app.container.make(AccessTokenSigner);
  // Far more than the guard's 10,000-entry cache and its 32,768-slot admission filter, so a token
  // comes round again only after it has been evicted: every request pays for a full verification.
  const count = Number(process.env.BENCH_TOKENS ?? 60_000);
  const now = Math.floor(Date.now() / 1000);
  const tokens: string[] = new Array(count);
  // Eight in flight: the signatures spread over libuv's thread pool.
  let next = 0;
  const worker = async () => {
    for (let i = next++; i < count; i = next++) {
      const row = rows[i % rows.length]!;
      tokens[i] = await signer.sign({
        tokenId: row.id,
        userId: row.userId,
        clientId: row.clientId,
        scopes: row.scopes,
        issuedAt: now - Math.floor(i / rows.length),
        expiresAt: now + 3600,
      });
    }
  };
  await Promise.all(Array.from({ length: 8 }, worker));
  return tokens;
}

/**
 * `count` users and one live access token each, inserted in SQL in chunks (creating them one by
 * one would hash `count` passwords): the users' model cache misses as the load takes turns.
 */
async function tokensOfManyUsers(
  app: Application,
  count: number,
  clientId: string,
): Promise<Pick<AccessTokenRecord, 'id' | 'userId' | 'clientId' | 'scopes'>[]> {
  const now = new Date().toISOString();
  const expires = new Date(Date.now() + 86_400_000).toISOString();
  const { password: hashed } = (await app.db
    .selectFrom('users')
    .select('password')
    .where('id', '=', user.id)
    .executeTakeFirstOrThrow()) as { password: string };
  const rows: Pick<AccessTokenRecord, 'id' | 'userId' | 'clientId' | 'scopes'>[] = [];
  for (let first = 0; first < count; first += 500) {
    const chunk = Array.from({ length: Math.min(500, count - first) }, (_, i) => ({
      name: `Bench ${first + i}`,
      email: `bench-${process.pid}-${first + i}@example.test`,
      password: hashed,
      created_at: now,
      updated_at: now,
    }));
    const ids = await app.db.insertInto('users').values(chunk).returning('id').execute();
    const tokens = ids.map(({ id }: { id: number }) => ({
      id: Date.now().toString(16).padStart(12, '0') + randomBytes(14).toString('hex'),
      user_id: id,
      client_id: clientId,
      name: 'bench',
      scopes: '["check-status"]',
      revoked: 0,
      created_at: now,
      updated_at: now,
      expires_at: expires,
    }));
    await app.db.insertInto('oauth_access_tokens').values(tokens).execute();
    for (const token of tokens) {
      rows.push({ id: token.id, userId: token.user_id, clientId, scopes: ['check-status'] });
    }
  }
  return rows;
}
