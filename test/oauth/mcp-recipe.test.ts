import * as oauth from 'oauth4webapi';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { currentUser } from '../../src/auth/context.js';
import { ANY_ENGINE } from '../support/engines.js';
import { type DocumentServer, documentServer } from './document-server.js';
import { ADA, approvalFields, Browser, freePort, insecure, type OAuthTestApp, oauthApp } from './support.js';

const CALLBACK = 'http://127.0.0.1/callback';

/**
 * docs/mcp.md, step by step, as an MCP client does it: only the MCP server's URL is known at the
 * start. The server is configured and routed exactly as the recipe says.
 */
describe(`MCP recipe: an MCP server's HTTP endpoint behind Tollgate`, () => {
  let t: OAuthTestApp;
  let site: DocumentServer;
  let ada: Browser;
  let base: string;
  let mcp: string;

  beforeAll(async () => {
    site = await documentServer();
    const port = await freePort();
    base = `http://127.0.0.1:${port}`;
    mcp = `${base}/mcp`;
    t = await oauthApp({
      engine: ANY_ENGINE,
      port,
      config: {
        app: { url: base },
        oauth: {
          scopes: { 'mcp:tools': 'Use the MCP tools', 'orders:read': 'Read your orders' },
          protectedResources: [
            { resource: mcp, scopes: ['mcp:tools'], name: 'Orders MCP server' },
            { resource: `${base}/api`, scopes: ['orders:read'] },
          ],
          registration: 'open',
          // Step 2: both ways of registering. (allowHttp and loopback only because the test's
          // client document is served on loopback; production keeps the defaults.)
          clientIdMetadataDocuments: { enabled: true, allowHttp: true, allowAddressRanges: ['loopback'] },
        },
      },
      setup: (app) => {
        // Step 1: the MCP endpoint (Streamable HTTP: JSON-RPC over POST) behind the api guard.
        app.router
          .post('/mcp', async (c) => {
            const call = (await c.req.json()) as { id: number; method: string };
            if (call.method !== 'tools/list') {
              return c.json({
                jsonrpc: '2.0',
                id: call.id,
                error: { code: -32601, message: 'Method not found' },
              });
            }
            const user = currentUser(c)!;
            return c.json({
              jsonrpc: '2.0',
              id: call.id,
              result: { tools: [{ name: 'order_status', description: `Orders of ${user.name}` }] },
            });
          })
          .middleware('auth:api', 'scopes:mcp:tools');
        app.router.get('/api/orders', (c) => c.json({ orders: [] })).middleware('auth:api');
      },
    });
    ada = new Browser(t.url);
    await ada.login(ADA);
  });
  afterAll(async () => {
    await t.stop();
    await site.close();
  });

  const listTools = (accessToken?: string) =>
    fetch(mcp, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        ...(accessToken ? { authorization: `Bearer ${accessToken}` } : {}),
      },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
    });

  /** Steps 3 and 4: from a 401 to the authorization server's metadata (RFC 9728, RFC 8414). */
  async function discover(): Promise<oauth.AuthorizationServer> {
    const refused = await listTools();
    expect(refused.status).toBe(401);
    const challenge = refused.headers.get('www-authenticate')!;
    const metadataUrl = /resource_metadata="([^"]+)"/.exec(challenge)![1]!;
    expect(metadataUrl).toBe(`${base}/.well-known/oauth-protected-resource/mcp`);
    const resource = await oauth.processResourceDiscoveryResponse(new URL(mcp), await fetch(metadataUrl));
    expect(resource.scopes_supported).toEqual(['mcp:tools']);
    const issuer = new URL(resource.authorization_servers![0]!);
    return oauth.processDiscoveryResponse(
      issuer,
      await oauth.discoveryRequest(issuer, { algorithm: 'oauth2', ...insecure }),
    );
  }

  /** Step 5: authorization code + PKCE with `resource`, the user approving in the browser. */
  async function authorize(as: oauth.AuthorizationServer, client: oauth.Client, resource = mcp) {
    const verifier = oauth.generateRandomCodeVerifier();
    const redirect = 'http://127.0.0.1:53682/callback';
    const url = new URL(as.authorization_endpoint!);
    url.search = new URLSearchParams({
      client_id: client.client_id,
      redirect_uri: redirect,
      response_type: 'code',
      scope: resource === mcp ? 'mcp:tools' : 'orders:read',
      resource,
      code_challenge: await oauth.calculatePKCECodeChallenge(verifier),
      code_challenge_method: 'S256',
    }).toString();
    const page = await ada.get(url.href);
    const decision =
      page.status === 302 ? page : await ada.post('/oauth/authorize', approvalFields(await page.text()));
    const params = oauth.validateAuthResponse(as, client, new URL(decision.headers.get('location')!));
    return oauth.processAuthorizationCodeResponse(
      as,
      client,
      await oauth.authorizationCodeGrantRequest(as, client, oauth.None(), params, redirect, verifier, {
        ...insecure,
        additionalParameters: { resource },
      }),
    );
  }

  it('with a Client ID Metadata Document: 401 → metadata → authorize with resource → tools/list; a token for another resource is refused', async () => {
    const as = await discover();
    expect(as.client_id_metadata_document_supported).toBe(true);
    const client: oauth.Client = {
      client_id: site.document('/mcp-client.json', {
        client_name: 'Example MCP client',
        redirect_uris: [CALLBACK],
        grant_types: ['authorization_code', 'refresh_token'],
        token_endpoint_auth_method: 'none',
      }),
    };
    const tokens = await authorize(as, client);
    const called = await listTools(tokens.access_token);
    expect(called.status).toBe(200);
    expect(await called.json()).toEqual({
      jsonrpc: '2.0',
      id: 1,
      result: { tools: [{ name: 'order_status', description: `Orders of ${ADA.name}` }] },
    });

    // Step 6: the same client's token for the orders API is useless at the MCP endpoint.
    const other = await authorize(as, client, `${base}/api`);
    expect(
      (await fetch(`${base}/api/orders`, { headers: { authorization: `Bearer ${other.access_token}` } }))
        .status,
    ).toBe(200);
    const refused = await listTools(other.access_token);
    expect(refused.status).toBe(401);
    expect(refused.headers.get('www-authenticate')).toContain('error="invalid_token"');
    expect(refused.headers.get('www-authenticate')).toContain(
      `resource_metadata="${base}/.well-known/oauth-protected-resource/mcp"`,
    );
  });

  it('with dynamic registration (RFC 7591), for clients without metadata documents: the same flow', async () => {
    const as = await discover();
    const client = await oauth.processDynamicClientRegistrationResponse(
      await oauth.dynamicClientRegistrationRequest(
        as,
        {
          client_name: 'Older MCP client',
          redirect_uris: [CALLBACK],
          grant_types: ['authorization_code', 'refresh_token'],
          token_endpoint_auth_method: 'none',
        },
        insecure,
      ),
    );
    const tokens = await authorize(as, client);
    expect((await listTools(tokens.access_token)).status).toBe(200);
    const refreshed = await oauth.processRefreshTokenResponse(
      as,
      client,
      await oauth.refreshTokenGrantRequest(as, client, oauth.None(), tokens.refresh_token!, insecure),
    );
    expect((await listTools(refreshed.access_token)).status).toBe(200);
  });
});
