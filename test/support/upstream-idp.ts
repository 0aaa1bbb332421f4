import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { exportJWK, generateKeyPair } from 'jose';
import Provider from 'oidc-provider';

/** A person the identity provider knows, by login name. */
export interface UpstreamAccount {
  email: string;
  email_verified: boolean;
  name: string;
}

export interface UpstreamIdp {
  issuer: string;
  clientId: string;
  clientSecret: string;
  accounts: Map<string, UpstreamAccount>;
  /** Registers the client's redirect URI (the app's URL is known only once it listens). */
  register(redirectUri: string): Promise<void>;
  /** While set, the authorization requests reaching the provider carry this `nonce` instead of theirs. */
  replaceNonce: string | undefined;
  stop(): Promise<void>;
}

/**
 * A real OpenID Connect provider (panva's oidc-provider) on a free loopback port, with a login page
 * of its own: `GET /interaction/{uid}` shows a form (`login`: an account's name) and a "Deny"
 * button that answers the client with `access_denied`. Consent is given with the login.
 */
export async function startUpstreamIdp(): Promise<UpstreamIdp> {
  const server = createServer();
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const { privateKey } = await generateKeyPair('RS256', { extractable: true });
  const jwk = { ...(await exportJWK(privateKey)), alg: 'RS256', use: 'sig', kid: 'idp' };
  const accounts = new Map<string, UpstreamAccount>();
  let provider: Provider | undefined;

  const idp: UpstreamIdp = {
    issuer,
    clientId: 'tollgate-test',
    clientSecret: 'tollgate-test-secret-tollgate-test-secret',
    accounts,
    replaceNonce: undefined,
    async register(redirectUri) {
      provider = new Provider(issuer, {
        clients: [
          {
            client_id: idp.clientId,
            client_secret: idp.clientSecret,
            redirect_uris: [redirectUri],
            grant_types: ['authorization_code'],
            response_types: ['code'],
            token_endpoint_auth_method: 'client_secret_post',
          },
        ],
        jwks: { keys: [jwk] },
        cookies: { keys: ['upstream-idp-cookie-key'] },
        claims: { openid: ['sub'], email: ['email', 'email_verified'], profile: ['name'] },
        // The claims in the ID token too, as many providers (Google) put them.
        conformIdTokenClaims: false,
        features: { devInteractions: { enabled: false } },
        interactions: {
          url: (_ctx: unknown, interaction: { uid: string }) => `/interaction/${interaction.uid}`,
        },
        findAccount: (_ctx: unknown, id: string) => {
          const account = accounts.get(id);
          return account ? { accountId: id, claims: () => ({ sub: id, ...account }) } : undefined;
        },
      });
    },
    stop: () => new Promise((done) => server.close(() => done())),
  };

  server.on('request', (req: IncomingMessage, res: ServerResponse) => {
    if (!provider) {
      res.writeHead(503).end();
      return;
    }
    const url = new URL(req.url ?? '/', issuer);
    if (url.pathname.startsWith('/interaction/')) {
      void interaction(provider, url, req, res).catch((error: unknown) => {
        res.writeHead(500).end(String(error));
      });
      return;
    }
    if (url.pathname === '/auth' && idp.replaceNonce) {
      url.searchParams.set('nonce', idp.replaceNonce);
      req.url = url.pathname + url.search;
    }
    provider.callback()(req, res);
  });
  return idp;
}

async function interaction(provider: Provider, url: URL, req: IncomingMessage, res: ServerResponse) {
  const [, , uid, action] = url.pathname.split('/');
  if (req.method === 'GET') {
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(`<!DOCTYPE html>
<html lang="en"><head><title>Test IdP</title></head><body><main>
<h1>Sign in to Test IdP</h1>
<form method="post" action="/interaction/${uid}/login">
<label for="login">Login</label> <input id="login" name="login" autocomplete="off">
<button type="submit">Sign in</button>
</form>
<form method="post" action="/interaction/${uid}/deny"><button type="submit">Deny</button></form>
</main></body></html>`);
    return;
  }
  const details = await provider.interactionDetails(req, res);
  if (action === 'deny') {
    await provider.interactionFinished(req, res, {
      error: 'access_denied',
      error_description: 'The user refused.',
    });
    return;
  }
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  const body = new URLSearchParams(Buffer.concat(chunks).toString('utf8'));
  const login = body.get('login') ?? '';
  const grant = new provider.Grant({ accountId: login, clientId: String(details.params.client_id) });
  grant.addOIDCScope(String(details.params.scope ?? 'openid'));
  const grantId = await grant.save();
  await provider.interactionFinished(
    req,
    res,
    { login: { accountId: login }, consent: { grantId } },
    { mergeWithLastSubmission: false },
  );
}
