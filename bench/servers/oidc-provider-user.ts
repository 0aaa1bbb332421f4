// Peer: panva's `oidc-provider` (default in-memory adapter, plain `node:http`) for the user flows
// beside Tollgate's (issue 35). `BENCH_GRANT` picks the load's job:
//   authcode  GET /auth with a logged-in session whose grant already covers the scope (the
//             provider answers at once with a code, as Tollgate skips the approval page of a
//             client approved before), then POST /token with the code and its PKCE verifier
//   refresh   POST /token grant_type=refresh_token, each connection following its own rotating
//             chain (a refresh token is single-use in both servers)
// Access tokens are RS256 JWTs (RFC 9068, for a resource server: RFC 8707), refresh tokens are
// issued and rotated every time, as Tollgate does. With DATABASE_URL (an SQLite file or a
// postgres:// URL) the provider keeps its state there (`oidc-provider-adapter.ts`), as Tollgate
// does; without it, in the provider's development-only in-memory adapter. Each session is logged in once before the load
// through the provider's interaction endpoints: a login and consent finished by
// `interactionFinished`, as an application's login page would.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { exportJWK, generateKeyPair } from 'jose';
import Provider from 'oidc-provider';
import { announce, exitOnSigterm } from './announce.js';
import { authorizationRequest } from './authorization-request.js';
import { databaseAdapter } from './oidc-provider-adapter.js';

const resource = 'urn:tollgate:bench';
const scope = 'check-status';
const clientId = 'bench-client';
const clientSecret = 'bench-secret-bench-secret-bench-secret';
const redirectUri = 'http://127.0.0.1:9/callback';
const sessions = Number(process.env.BENCH_SESSIONS ?? Number(process.env.BENCH_CONNECTIONS ?? 10) * 2);

const server = createServer();
server.listen(0, '127.0.0.1', () => void start((server.address() as AddressInfo).port));

async function start(port: number) {
  const { privateKey } = await generateKeyPair('RS256', { extractable: true });
  const origin = `http://127.0.0.1:${port}`;
  const databaseUrl = process.env.DATABASE_URL;
  const provider = new Provider(origin, {
    ...(databaseUrl ? { adapter: await databaseAdapter(databaseUrl) } : {}),
    clients: [
      {
        client_id: clientId,
        client_secret: clientSecret,
        grant_types: ['authorization_code', 'refresh_token'],
        redirect_uris: [redirectUri],
        response_types: ['code'],
        scope,
      },
    ],
    scopes: [scope],
    jwks: { keys: [{ ...(await exportJWK(privateKey)), alg: 'RS256', use: 'sig', kid: 'RS256' }] },
    cookies: { keys: ['bench-cookie-key'] },
    pkce: { required: () => true },
    issueRefreshToken: async () => true,
    rotateRefreshToken: () => true,
    features: {
      devInteractions: { enabled: false },
      resourceIndicators: {
        enabled: true,
        defaultResource: () => resource,
        useGrantedResource: () => true,
        getResourceServerInfo: () => ({
          scope,
          audience: resource,
          accessTokenTTL: 3600,
          accessTokenFormat: 'jwt',
          jwt: { sign: { alg: 'RS256' } },
        }),
      },
    },
  });
  const callback = provider.callback();
  server.on('request', (req: IncomingMessage, res: ServerResponse) => {
    if (req.url?.startsWith('/interaction/')) void finishInteraction(provider, req, res);
    else callback(req, res);
  });
  exitOnSigterm();

  const { authorizePath, codeVerifier, state } = authorizationRequest('/auth', clientId, redirectUri);
  const logged: { cookie: string; csrfToken: string }[] = [];
  const refreshTokens: string[] = [];
  for (let i = 0; i < sessions; i++) {
    const { cookie, code } = await logIn(origin, authorizePath);
    logged.push({ cookie, csrfToken: '' });
    refreshTokens.push(await redeem(origin, code, codeVerifier));
  }
  announce({
    port,
    fixtures: {
      clientId,
      clientSecret,
      redirectUri,
      codeVerifier,
      state,
      authorizePath,
      origin,
      sessions: logged,
      refreshTokens,
      tokenPath: '/token',
    },
  });
}

/** The application's login and consent page, answered at once for the bench user. */
async function finishInteraction(provider: Provider, req: IncomingMessage, res: ServerResponse) {
  try {
    const details = await provider.interactionDetails(req, res);
    const grant = new provider.Grant({ accountId: 'bench-user', clientId: String(details.params.client_id) });
    grant.addOIDCScope(scope);
    grant.addResourceScope(resource, scope);
    const grantId = await grant.save();
    await provider.interactionFinished(
      req,
      res,
      { login: { accountId: 'bench-user' }, consent: { grantId } },
      { mergeWithLastSubmission: false },
    );
  } catch (error) {
    res.statusCode = 500;
    res.end(String(error));
  }
}

/** Follows the redirects of a first authorization request as a browser would: a session and a code. */
async function logIn(origin: string, authorizePath: string): Promise<{ cookie: string; code: string }> {
  const jar = new Map<string, string>();
  let location = `${origin}${authorizePath}`;
  for (let hop = 0; hop < 6; hop++) {
    const response = await fetch(location, {
      redirect: 'manual',
      headers: { cookie: [...jar].map(([name, value]) => `${name}=${value}`).join('; ') },
    });
    for (const line of response.headers.getSetCookie()) {
      const [pair] = line.split(';');
      const eq = pair!.indexOf('=');
      jar.set(pair!.slice(0, eq), pair!.slice(eq + 1));
    }
    const next = new URL(response.headers.get('location') ?? '', location);
    const code = next.searchParams.get('code');
    if (code) {
      const cookie = [...jar]
        .filter(([name]) => name.startsWith('_session'))
        .map(([name, value]) => `${name}=${value}`)
        .join('; ');
      return { cookie, code };
    }
    if (response.status < 300 || response.status >= 400) {
      throw new Error(`${location} answered ${response.status}: ${(await response.text()).slice(0, 200)}`);
    }
    location = next.toString();
  }
  throw new Error('no code after six redirects');
}

async function redeem(origin: string, code: string, codeVerifier: string): Promise<string> {
  const response = await fetch(`${origin}/token`, {
    method: 'POST',
    headers: {
      'content-type': 'application/x-www-form-urlencoded',
      authorization: `Basic ${Buffer.from(`${clientId}:${clientSecret}`).toString('base64')}`,
    },
    body: new URLSearchParams({
      grant_type: 'authorization_code',
      code,
      redirect_uri: redirectUri,
      code_verifier: codeVerifier,
    }),
  });
  const body = (await response.json()) as { refresh_token?: string };
  if (!body.refresh_token) throw new Error(`no refresh token: ${response.status} ${JSON.stringify(body)}`);
  return body.refresh_token;
}
