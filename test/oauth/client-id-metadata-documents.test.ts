import * as oauth from 'oauth4webapi';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { currentUser } from '../../src/auth/context.js';
import { Clients } from '../../src/oauth/index.js';
import { ANY_ENGINE } from '../support/engines.js';
import { type DocumentServer, documentServer } from './document-server.js';
import { ADA, approvalFields, Browser, insecure, type OAuthTestApp, oauthApp } from './support.js';

const CALLBACK = 'http://127.0.0.1:7777/callback';

/** The documents are served over http on loopback: both need the operator's allow options. */
const DEV = {
  enabled: true,
  allowHttp: true,
  allowAddressRanges: ['loopback'],
  cacheSeconds: { default: 300, min: 60, max: 3600 },
};

function authorizeQuery(clientId: string, challenge: string, redirect = CALLBACK): URLSearchParams {
  return new URLSearchParams({
    client_id: clientId,
    redirect_uri: redirect,
    response_type: 'code',
    scope: 'check-status',
    code_challenge: challenge,
    code_challenge_method: 'S256',
  });
}

describe(`Client ID Metadata Documents`, () => {
  let t: OAuthTestApp;
  let site: DocumentServer;
  let ada: Browser;

  beforeAll(async () => {
    site = await documentServer();
    t = await oauthApp({
      engine: ANY_ENGINE,
      config: { oauth: { clientIdMetadataDocuments: DEV } },
      setup: (app) => {
        app.router.get('/api/me', (c) => c.json({ user: currentUser(c)?.id ?? null })).middleware('auth:api');
      },
    });
    ada = new Browser(t.url);
    await ada.login(ADA);
  });
  afterAll(async () => {
    await t.stop();
    await site.close();
  });

  /** Ada's browser at the authorization endpoint: the page (or error), as the server answers it. */
  const visit = (clientId: string, redirect = CALLBACK) =>
    ada.get(`/oauth/authorize?${authorizeQuery(clientId, 'x'.repeat(43), redirect)}`);

  it('draft §5: the metadata (RFC 8414 and OpenID discovery) says client_id_metadata_document_supported', async () => {
    for (const path of ['/.well-known/oauth-authorization-server', '/.well-known/openid-configuration']) {
      expect(await (await fetch(`${t.url}${path}`)).json()).toMatchObject({
        client_id_metadata_document_supported: true,
      });
    }
  });

  it('draft §4: the code flow with PKCE for a client known only by its document URL, to a token that works and refreshes', async () => {
    const clientId = site.document('/.well-known/oauth-client/claude-code/client-metadata-document.json', {
      client_name: 'Claude Code',
      redirect_uris: [CALLBACK],
      grant_types: ['authorization_code', 'refresh_token'],
      token_endpoint_auth_method: 'none',
    });
    const client: oauth.Client = { client_id: clientId };
    const verifier = oauth.generateRandomCodeVerifier();
    const query = authorizeQuery(clientId, await oauth.calculatePKCECodeChallenge(verifier));
    const page = await ada.get(`/oauth/authorize?${query}`);
    expect(page.status).toBe(200);
    const html = await page.text();
    // The consent page names the client as its document does, and the host that vouches for it.
    expect(html).toContain('<strong class="client-name">Claude Code</strong>');
    expect(html).toContain(`<strong class="client-host">${new URL(clientId).host}</strong>`);

    const decision = await ada.post('/oauth/authorize', approvalFields(html));
    const params = oauth.validateAuthResponse(t.as, client, new URL(decision.headers.get('location')!));
    const tokens = await oauth.processAuthorizationCodeResponse(
      t.as,
      client,
      await oauth.authorizationCodeGrantRequest(
        t.as,
        client,
        oauth.None(),
        params,
        CALLBACK,
        verifier,
        insecure,
      ),
    );
    const me = await fetch(`${t.url}/api/me`, {
      headers: { authorization: `Bearer ${tokens.access_token}` },
    });
    expect(await me.json()).toEqual({ user: t.ada.id });
    const refreshed = await oauth.processRefreshTokenResponse(
      t.as,
      client,
      await oauth.refreshTokenGrantRequest(t.as, client, oauth.None(), tokens.refresh_token!, insecure),
    );
    expect(refreshed.access_token).toBeTypeOf('string');
    // Fetched once: the authorization and token endpoints used the cached document.
    expect(site.hits('/.well-known/oauth-client/claude-code/client-metadata-document.json')).toBe(1);
  });

  it('RFC 9126: a metadata-document client pushes its authorization request', async () => {
    const clientId = site.document('/pushed.json', { client_name: 'Pusher', redirect_uris: [CALLBACK] });
    const client: oauth.Client = { client_id: clientId };
    const response = await oauth.pushedAuthorizationRequest(
      { ...t.as, pushed_authorization_request_endpoint: `${t.url}/oauth/par` },
      client,
      oauth.None(),
      authorizeQuery(clientId, await oauth.calculatePKCECodeChallenge(oauth.generateRandomCodeVerifier())),
      insecure,
    );
    const pushed = await oauth.processPushedAuthorizationResponse(t.as, client, response);
    const page = await ada.get(
      `/oauth/authorize?${new URLSearchParams({ client_id: clientId, request_uri: pushed.request_uri })}`,
    );
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('Pusher');
  });

  it('draft §4.1: a redirect_uri the document does not list is an error page, never a redirect', async () => {
    const clientId = site.document('/strict.json', { redirect_uris: [CALLBACK] });
    const page = await visit(clientId, 'http://127.0.0.1:7777/elsewhere');
    expect(page.status).toBe(400);
    expect(page.headers.get('location')).toBeNull();
    expect(await page.text()).toContain('does not match');
  });

  it('draft §4.1: documents that cannot be a client are refused with the reason, on a page', async () => {
    const cases: [
      string,
      (url: string) => { status?: number; headers?: Record<string, string>; body: string },
      string,
    ][] = [
      [
        '/mismatch.json',
        () => ({
          body: JSON.stringify({ client_id: `${site.origin}/other.json`, redirect_uris: [CALLBACK] }),
        }),
        'its client_id is not the URL',
      ],
      [
        '/big.json',
        (url) => ({
          body: JSON.stringify({ client_id: url, redirect_uris: [CALLBACK], pad: 'x'.repeat(6000) }),
        }),
        'larger than 5120 bytes',
      ],
      [
        '/chunked.json',
        (url) => ({
          headers: { 'transfer-encoding': 'chunked' },
          body: JSON.stringify({ client_id: url, redirect_uris: [CALLBACK], pad: 'x'.repeat(6000) }),
        }),
        'larger than 5120 bytes',
      ],
      [
        '/page.html',
        () => ({ headers: { 'content-type': 'text/html' }, body: '<html>hello</html>' }),
        'it is not JSON',
      ],
      ['/list.json', () => ({ body: '[1,2]' }), 'not a JSON object'],
      [
        '/secret.json',
        (url) => ({
          body: JSON.stringify({
            client_id: url,
            redirect_uris: [CALLBACK],
            token_endpoint_auth_method: 'client_secret_basic',
          }),
        }),
        'token_endpoint_auth_method must be none',
      ],
      [
        '/with-secret.json',
        (url) => ({
          body: JSON.stringify({ client_id: url, redirect_uris: [CALLBACK], client_secret: 'shh' }),
        }),
        'may not carry a client secret',
      ],
      [
        '/no-redirects.json',
        (url) => ({ body: JSON.stringify({ client_id: url }) }),
        'at least one redirect URI',
      ],
      [
        '/evil-redirect.json',
        (url) => ({ body: JSON.stringify({ client_id: url, redirect_uris: ['http://evil.example/cb'] }) }),
        'loopback',
      ],
      [
        '/moved.json',
        () => ({ status: 302, headers: { location: site.url('/x.json') }, body: '' }),
        'redirects are not followed',
      ],
      ['/gone.json', () => ({ status: 404, body: 'no' }), 'answered 404'],
    ];
    for (const [path, answer, reason] of cases) {
      site.serve(path, answer);
      const page = await visit(site.url(path));
      expect(page.status, path).toBe(400);
      expect(page.headers.get('location'), path).toBeNull();
      expect(await page.text(), path).toContain(reason);
    }
  });

  it('draft §3: client id URLs with a fragment, a query, dot segments or user info are refused before any fetch', async () => {
    for (const id of [
      `${site.origin}/a.json#x`,
      `${site.origin}/a.json?x=1`,
      `${site.origin}/x/../a.json`,
      `http://user:pass@127.0.0.1:1/a.json`,
      `${site.origin}/`,
      `${site.origin}/${'a'.repeat(250)}.json`,
    ]) {
      const page = await visit(id);
      expect(page.status, id).toBeGreaterThanOrEqual(400);
      expect(page.headers.get('location'), id).toBeNull();
    }
    expect(site.hits('/a.json')).toBe(0);
  });

  it('RFC 9111 §5.2.2: the document is kept for its max-age (within bounds), then fetched again and its changes applied', async () => {
    const path = '/cached.json';
    const clientId = site.document(
      path,
      { client_name: 'Old name', redirect_uris: [CALLBACK] },
      { 'cache-control': 'max-age=120' },
    );
    expect(await (await visit(clientId)).text()).toContain('Old name');
    site.document(
      path,
      { client_name: 'New name', redirect_uris: [CALLBACK] },
      { 'cache-control': 'max-age=120' },
    );
    t.clock.advance(119_000);
    expect(await (await visit(clientId)).text()).toContain('Old name');
    t.clock.advance(2_000);
    expect(await (await visit(clientId)).text()).toContain('New name');
    expect(site.hits(path)).toBe(2);
  });

  it('a first visit by several requests at once (a double click, parallel tabs) fetches the document once', async () => {
    const path = '/parallel.json';
    const clientId = site.document(path, { client_name: 'Parallel', redirect_uris: [CALLBACK] });
    const pages = await Promise.all([1, 2, 3, 4].map(() => visit(clientId)));
    expect(pages.map((page) => page.status)).toEqual([200, 200, 200, 200]);
    expect(site.hits(path)).toBe(1);
  });

  it('a revoked metadata-document client stays revoked when its document is fetched again', async () => {
    const path = '/revoked.json';
    const clientId = site.document(path, { redirect_uris: [CALLBACK] }, { 'cache-control': 'no-store' });
    expect((await visit(clientId)).status).toBe(200);
    const clients = t.app.container.make(Clients);
    await clients.delete((await clients.find(clientId))!);
    t.clock.advance(61_000);
    expect((await visit(clientId)).status).toBe(400);
    expect(site.hits(path)).toBe(2);
  });
});

describe(`Client ID Metadata Documents: SSRF protection and the default`, () => {
  let site: DocumentServer;

  beforeAll(async () => {
    site = await documentServer();
  });
  afterAll(async () => site.close());

  it('off by default: an https client id is an unknown client, and the metadata does not advertise documents', async () => {
    const t = await oauthApp({ engine: ANY_ENGINE });
    try {
      const browser = new Browser(t.url);
      await browser.login(ADA);
      const page = await browser.get(
        `/oauth/authorize?${authorizeQuery('https://app.example/client.json', 'x'.repeat(43))}`,
      );
      expect(page.status).toBe(400);
      expect(await page.text()).toContain('is not registered');
      const metadata = await (await fetch(`${t.url}/.well-known/oauth-authorization-server`)).json();
      expect(metadata).not.toHaveProperty('client_id_metadata_document_supported');
    } finally {
      await t.stop();
    }
  });

  it('a metadata document on a loopback or private address is refused, by IP literal and by a name that resolves to one', async () => {
    const t = await oauthApp({
      engine: ANY_ENGINE,
      config: { oauth: { clientIdMetadataDocuments: { enabled: true, allowHttp: true } } },
    });
    try {
      const browser = new Browser(t.url);
      await browser.login(ADA);
      const port = new URL(site.origin).port;
      site.document('/internal.json', { redirect_uris: [CALLBACK] });
      for (const clientId of [
        site.url('/internal.json'),
        `http://localhost:${port}/internal.json`,
        `http://[::ffff:7f00:1]:${port}/internal.json`,
        'http://169.254.169.254/latest/meta-data.json',
        'http://10.0.0.1/client.json',
      ]) {
        const page = await browser.get(`/oauth/authorize?${authorizeQuery(clientId, 'x'.repeat(43))}`);
        expect(page.status, clientId).toBe(400);
        expect(await page.text(), clientId).toContain('not on a public address');
      }
      // Nothing reached the loopback server.
      expect(site.hits('/internal.json')).toBe(0);
    } finally {
      await t.stop();
    }
  });
});

describe(`Client ID Metadata Documents: fetches per address are limited`, () => {
  let t: OAuthTestApp;
  let site: DocumentServer;
  beforeAll(async () => {
    site = await documentServer();
    t = await oauthApp({
      engine: ANY_ENGINE,
      config: {
        oauth: {
          clientIdMetadataDocuments: DEV,
          throttle: { documents: { address: { points: 3, durationSeconds: 60 } } },
        },
      },
    });
  });
  afterAll(async () => {
    await t.stop();
    await site.close();
  });

  const push = (clientId: string) =>
    fetch(`${t.url}/oauth/par`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        client_id: clientId,
        redirect_uri: CALLBACK,
        response_type: 'code',
        code_challenge: 'x'.repeat(43),
        code_challenge_method: 'S256',
      }),
    });

  it('requests that would fetch a new document are limited per address (no login needed at /oauth/par); cached ones are not', async () => {
    const cached = site.document('/cached-for-limit.json', { redirect_uris: [CALLBACK] });
    expect((await push(cached)).status).toBe(201);
    // Distinct URLs (an attacker's way round a cache): the limit stops the fetches.
    const statuses = [];
    for (let i = 0; i < 4; i++) statuses.push((await push(site.url(`/elsewhere-${i}.json`))).status);
    expect(statuses).toEqual([401, 401, 429, 429]);
    expect(site.hits('/elsewhere-2.json') + site.hits('/elsewhere-3.json')).toBe(0);
    // The cached document still works: it needs no fetch.
    expect((await push(cached)).status).toBe(201);
  });
});
