// Floor: the least work an HTTP token job needs, with the libraries Tollgate uses (hono, jose,
// @node-rs/argon2, kysely on better-sqlite3 or pg) and no Tollgate code. Tollgate's issuance rows
// are measured against it (issue 35). BENCH_FLOOR picks the job, DATABASE_URL the database
// (an SQLite file or a postgres:// URL), BENCH_ALG the signature:
//   cc        POST /oauth/token client_credentials: parse the form, check a cached client's
//             secret in constant time, sign, insert the access token
//   password  the same, plus one brute-force counter upsert per username (RFC 6749 §4.3.2; the
//             limit as high as the Tollgate row's), one user select and one argon2id verify;
//             access and refresh token inserted in one transaction
//   authcode  GET /oauth/authorize (session lookup; a client the user approved before, i.e. whose
//             latest live token grants the scopes, gets its code at once: inserted, 302; else the
//             pending request is stored in the session and an approval page answers), POST
//             /oauth/authorize (session claimed, code inserted, 302), POST /oauth/token (code read, PKCE checked, code consumed, access and refresh token
//             inserted in one transaction)
import { createHash, randomBytes, randomUUID, timingSafeEqual } from 'node:crypto';
import { hash, verify } from '@node-rs/argon2';
import { type Context, Hono } from 'hono';
import { generateKeyPair, SignJWT } from 'jose';
import { sql } from 'kysely';
import { serveHono } from './announce.js';
import { authorizationRequest } from './authorization-request.js';
import { connect, createTables } from './floor-database.js';

const job = process.env.BENCH_FLOOR ?? 'cc';
const alg = process.env.BENCH_ALG ?? 'ES256';
const url = process.env.DATABASE_URL ?? ':memory:';
const sessionCount = Number(process.env.BENCH_SESSIONS ?? Number(process.env.BENCH_CONNECTIONS ?? 10) * 2);
const issuer = 'http://127.0.0.1';
const scope = 'check-status';
const redirectUri = 'http://127.0.0.1:9/callback';

const db = connect(url);
await createTables(db, url.startsWith('postgres'));
const { privateKey } = await generateKeyPair(alg);

const digest = (value: string) => createHash('sha256').update(value).digest();
const digestHex = (value: string) => createHash('sha256').update(value).digest('hex');
const secret = randomBytes(32).toString('base64url');
// The cached client: what a client lookup leaves in memory.
const client = {
  id: randomUUID(),
  name: 'Floor client',
  secretDigest: digest(secret),
  redirectUri,
  scopes: new Set([scope]),
};

/** A time-ordered token id, as Tollgate's (index pages filled in order). */
const tokenId = () => Date.now().toString(16).padStart(12, '0') + randomBytes(14).toString('hex');
const iso = (secondsFromNow: number) => new Date(Date.now() + secondsFromNow * 1000).toISOString();

function authenticatedClient(c: Context): boolean {
  const header = c.req.header('authorization') ?? '';
  if (!header.startsWith('Basic ')) return false;
  const decoded = Buffer.from(header.slice(6), 'base64').toString();
  const colon = decoded.indexOf(':');
  if (colon < 0 || decodeURIComponent(decoded.slice(0, colon)) !== client.id) return false;
  return timingSafeEqual(digest(decodeURIComponent(decoded.slice(colon + 1))), client.secretDigest);
}

const scopesAllowed = (requested: string) => requested.split(' ').every((s) => client.scopes.has(s));

async function signAccessToken(id: string, subject: string, scopes: string): Promise<string> {
  return new SignJWT({ client_id: client.id, scope: scopes })
    .setProtectedHeader({ alg, typ: 'at+jwt' })
    .setIssuer(issuer)
    .setAudience(issuer)
    .setSubject(subject)
    .setJti(id)
    .setIssuedAt()
    .setExpirationTime('1h')
    .sign(privateKey);
}

const accessRow = (id: string, userId: number | null, scopes: string) => ({
  id,
  user_id: userId,
  client_id: client.id,
  scopes,
  revoked: 0,
  created_at: iso(0),
  expires_at: iso(3600),
});

/** A user's access and refresh token, inserted together; `before` runs first in the transaction. */
async function userTokens(
  userId: number,
  scopes: string,
  before?: (trx: typeof db, accessTokenId: string) => Promise<boolean>,
): Promise<Record<string, unknown> | undefined> {
  const id = tokenId();
  const accessToken = await signAccessToken(id, String(userId), scopes);
  const refreshToken = randomBytes(32).toString('base64url');
  const saved = await db.transaction().execute(async (trx) => {
    if (before && !(await before(trx, id))) return false;
    await trx
      .insertInto('floor_access_tokens')
      .values(accessRow(id, userId, scopes))
      .execute();
    await trx
      .insertInto('floor_refresh_tokens')
      .values({
        id: digestHex(refreshToken),
        access_token_id: id,
        family_id: randomUUID(),
        revoked: 0,
        created_at: iso(0),
        expires_at: iso(30 * 86_400),
      })
      .execute();
    return true;
  });
  if (!saved) return undefined;
  return {
    access_token: accessToken,
    token_type: 'Bearer',
    expires_in: 3600,
    refresh_token: refreshToken,
    scope: scopes,
  };
}

/** One login attempt counted for `username` in a 60-second window: the least a throttle needs. */
async function attemptAllowed(username: string): Promise<boolean> {
  const now = Date.now();
  const { rows } = await sql<{
    attempts: number;
  }>`insert into floor_login_attempts (username, attempts, expire)
    values (${username}, 1, ${now + 60_000}) on conflict (username) do update set
      attempts = case when floor_login_attempts.expire > ${now} then floor_login_attempts.attempts + 1 else 1 end,
      expire = case when floor_login_attempts.expire > ${now} then floor_login_attempts.expire else excluded.expire end
    returning attempts`.execute(db);
  return rows[0]!.attempts <= 1_000_000;
}

const tokenError = (c: Context, error: string, status: 400 | 401 = 400) =>
  c.json({ error }, status, { 'cache-control': 'no-store' });
const tokenResponse = (c: Context, body: Record<string, unknown>) =>
  c.json(body, 200, { 'cache-control': 'no-store' });

const app = new Hono();

app.post('/oauth/token', async (c) => {
  const form = new URLSearchParams(await c.req.text());
  if (!authenticatedClient(c)) return tokenError(c, 'invalid_client', 401);
  const grantType = form.get('grant_type');
  if (grantType === 'client_credentials' && job === 'cc') {
    const scopes = form.get('scope') ?? scope;
    if (!scopesAllowed(scopes)) return tokenError(c, 'invalid_scope');
    const id = tokenId();
    const accessToken = await signAccessToken(id, client.id, scopes);
    await db
      .insertInto('floor_access_tokens')
      .values(accessRow(id, null, scopes))
      .execute();
    return tokenResponse(c, {
      access_token: accessToken,
      token_type: 'Bearer',
      expires_in: 3600,
      scope: scopes,
    });
  }
  if (grantType === 'password' && job === 'password') {
    const scopes = form.get('scope') ?? scope;
    if (!scopesAllowed(scopes)) return tokenError(c, 'invalid_scope');
    if (!(await attemptAllowed(form.get('username') ?? ''))) {
      return c.json({ error: 'temporarily_unavailable' }, 429, { 'cache-control': 'no-store' });
    }
    const user = await db
      .selectFrom('floor_users')
      .select(['id', 'password'])
      .where('email', '=', form.get('username') ?? '')
      .executeTakeFirst();
    if (!user || !(await verify(user.password, form.get('password') ?? ''))) {
      return tokenError(c, 'invalid_grant');
    }
    return tokenResponse(c, (await userTokens(user.id, scopes))!);
  }
  if (grantType === 'authorization_code' && job === 'authcode') {
    const id = digestHex(form.get('code') ?? '');
    const code = await db.selectFrom('floor_auth_codes').selectAll().where('id', '=', id).executeTakeFirst();
    if (
      !code ||
      code.revoked ||
      code.client_id !== client.id ||
      code.expires_at <= iso(0) ||
      code.redirect_uri !== form.get('redirect_uri') ||
      createHash('sha256')
        .update(form.get('code_verifier') ?? '')
        .digest('base64url') !== code.code_challenge
    ) {
      return tokenError(c, 'invalid_grant');
    }
    const body = await userTokens(code.user_id, code.scopes, async (trx, accessTokenId) => {
      const consumed = await trx
        .updateTable('floor_auth_codes')
        .set({ revoked: 1, access_token_id: accessTokenId })
        .where('id', '=', id)
        .where('revoked', '=', 0)
        .executeTakeFirst();
      return consumed.numUpdatedRows === 1n;
    });
    return body ? tokenResponse(c, body) : tokenError(c, 'invalid_grant');
  }
  return tokenError(c, 'unsupported_grant_type');
});

interface Session {
  userId: number;
  csrf: string;
  pending?: { authToken: string; scopes: string; codeChallenge: string; state: string };
}

async function sessionOf(c: Context): Promise<{ id: string; payload: string; session: Session } | undefined> {
  const id = /(?:^|; )floor_session=([^;]+)/.exec(c.req.header('cookie') ?? '')?.[1];
  if (!id) return undefined;
  const row = await db.selectFrom('floor_sessions').select('payload').where('id', '=', id).executeTakeFirst();
  return row && { id, payload: row.payload, session: JSON.parse(row.payload) as Session };
}

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (ch) => `&#${ch.charCodeAt(0)};`);

app.get('/oauth/authorize', async (c) => {
  const q = c.req.query();
  if (q.client_id !== client.id || q.redirect_uri !== client.redirectUri) {
    return c.text('Unknown client or redirect URI', 400);
  }
  const scopes = q.scope ?? scope;
  if (
    q.response_type !== 'code' ||
    q.code_challenge_method !== 'S256' ||
    !q.code_challenge ||
    !scopesAllowed(scopes)
  ) {
    return c.text('Invalid authorization request', 400);
  }
  const current = await sessionOf(c);
  if (!current) return c.redirect('/login');
  const state = q.state ?? '';
  // Approved before: the user's latest live token for the client grants the scopes (one indexed
  // row), so the code is issued at once, as Tollgate (and Passport) skip the page.
  const latest = await db
    .selectFrom('floor_access_tokens')
    .select('scopes')
    .where('user_id', '=', current.session.userId)
    .where('client_id', '=', client.id)
    .where('revoked', '=', 0)
    .where('expires_at', '>', iso(0))
    .orderBy('created_at', 'desc')
    .limit(1)
    .executeTakeFirst();
  if (latest && scopes.split(' ').every((s) => latest.scopes.split(' ').includes(s))) {
    return codeRedirect(c, current.session.userId, { scopes, codeChallenge: q.code_challenge, state });
  }
  const authToken = randomBytes(16).toString('base64url');
  const pending = { authToken, scopes, codeChallenge: q.code_challenge, state };
  await db
    .updateTable('floor_sessions')
    .set({
      payload: JSON.stringify({ ...current.session, pending }),
      last_activity: Math.floor(Date.now() / 1000),
    })
    .where('id', '=', current.id)
    .execute();
  return c.html(
    `<!doctype html><title>Authorize ${escapeHtml(client.name)}</title><p>${escapeHtml(client.name)} asks for ${escapeHtml(scopes)}.</p><form method="post" action="/oauth/authorize"><input type="hidden" name="_token" value="${current.session.csrf}"><input type="hidden" name="auth_token" value="${authToken}"><input type="hidden" name="state" value="${escapeHtml(pending.state)}"><input type="hidden" name="client_id" value="${client.id}"><button>Authorize</button></form>`,
  );
});

app.post('/oauth/authorize', async (c) => {
  const form = new URLSearchParams(await c.req.text());
  const current = await sessionOf(c);
  const pending = current?.session.pending;
  const same = (a: string, b: string | null) =>
    b !== null && a.length === b.length && timingSafeEqual(Buffer.from(a), Buffer.from(b));
  if (
    !current ||
    !pending ||
    !same(current.session.csrf, form.get('_token')) ||
    !same(pending.authToken, form.get('auth_token'))
  ) {
    return c.text('This request is no longer valid', 400);
  }
  // Claimed once: of two posts of the same approval only one finds the payload it read.
  const { pending: _answered, ...rest } = current.session;
  const claimed = await db
    .updateTable('floor_sessions')
    .set({ payload: JSON.stringify(rest), last_activity: Math.floor(Date.now() / 1000) })
    .where('id', '=', current.id)
    .where('payload', '=', current.payload)
    .executeTakeFirst();
  if (claimed.numUpdatedRows !== 1n) return c.text('This request was already answered', 400);
  return codeRedirect(c, current.session.userId, pending);
});

async function codeRedirect(
  c: Context,
  userId: number,
  request: { scopes: string; codeChallenge: string; state: string },
): Promise<Response> {
  const code = randomBytes(32).toString('base64url');
  await db
    .insertInto('floor_auth_codes')
    .values({
      id: digestHex(code),
      user_id: userId,
      client_id: client.id,
      scopes: request.scopes,
      redirect_uri: client.redirectUri,
      code_challenge: request.codeChallenge,
      revoked: 0,
      access_token_id: null,
      expires_at: iso(600),
    })
    .execute();
  const location = new URL(client.redirectUri);
  location.searchParams.set('code', code);
  location.searchParams.set('state', request.state);
  return c.redirect(location.toString(), 302);
}

serveHono(app, await fixtures());

async function fixtures(): Promise<Record<string, unknown>> {
  const clientFields = { clientId: client.id, clientSecret: secret };
  if (job === 'cc') return clientFields;
  const email = `floor-${process.pid}-${Date.now()}@example.test`;
  const password = 'correct horse battery staple';
  const user = await db
    .insertInto('floor_users')
    .values({ email, password: await hash(password) })
    .returning('id')
    .executeTakeFirstOrThrow();
  if (job === 'password') return { ...clientFields, username: email, password };
  const { authorizePath, codeVerifier, state } = authorizationRequest(
    '/oauth/authorize',
    client.id,
    redirectUri,
  );
  const sessions = [];
  for (let i = 0; i < sessionCount; i++) {
    const id = randomBytes(30).toString('base64url');
    const csrf = randomBytes(30).toString('base64url');
    await db
      .insertInto('floor_sessions')
      .values({
        id,
        payload: JSON.stringify({ userId: user.id, csrf }),
        last_activity: Math.floor(Date.now() / 1000),
      })
      .execute();
    sessions.push({ cookie: `floor_session=${id}`, csrfToken: csrf });
  }
  return {
    ...clientFields,
    redirectUri,
    codeVerifier,
    state,
    authorizePath,
    origin: 'http://127.0.0.1',
    sessions,
  };
}
