import * as oauth from 'oauth4webapi';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ANY_ENGINE } from '../support/engines.js';
import { ADA, approvalFields, Browser, insecure, type OAuthTestApp, oauthApp, REDIRECT } from './support.js';

/** The configured application URL: the issuer, and the origin of the resource identifiers. */
const ISSUER = 'http://localhost';

/** oauth4webapi derives every URL from the identifiers; the test server listens elsewhere. */
function toServer(t: OAuthTestApp) {
  return {
    ...insecure,
    [oauth.customFetch]: (url: string, init: RequestInit) => fetch(url.replace(ISSUER, t.url), init),
  };
}

/** RFC 9728 → RFC 8414 → RFC 9207, as an MCP client walks it. */
describe(`discovery and issuer identification`, () => {
  let t: OAuthTestApp;
  let as: oauth.AuthorizationServer;
  let ada: Browser;
  let clientId: string;

  beforeAll(async () => {
    t = await oauthApp({ engine: ANY_ENGINE, config: { oauth: { implicitGrant: true } } });
    clientId = (await t.createClient({ name: 'Order Tracker' })).client.id;
    ada = new Browser(t.url);
    await ada.login(ADA);
  });
  afterAll(async () => t.stop());

  it('RFC 9728 §3: without configuration the application itself is the protected resource', async () => {
    const resource = new URL(ISSUER);
    const res = await oauth.resourceDiscoveryRequest(resource, toServer(t));
    expect(res.headers.get('content-type')).toContain('application/json');
    const metadata = await oauth.processResourceDiscoveryResponse(resource, res);
    expect(metadata).toEqual({
      resource: ISSUER,
      authorization_servers: [ISSUER],
      scopes_supported: ['place-orders', 'check-status'],
      bearer_methods_supported: ['header'],
    });
    // RFC 8414 from the authorization server the resource names.
    const issuer = new URL(metadata.authorization_servers![0]!);
    const discovered = await oauth.processDiscoveryResponse(
      issuer,
      await oauth.discoveryRequest(issuer, { algorithm: 'oauth2', ...toServer(t) }),
    );
    expect(discovered.authorization_response_iss_parameter_supported).toBe(true);
    expect(discovered).not.toHaveProperty('protected_resources');
    as = {
      ...discovered,
      authorization_endpoint: `${t.url}/oauth/authorize`,
      token_endpoint: `${t.url}/oauth/token`,
    };
  });

  const authorize = async (params: Record<string, string>) => {
    const query = new URLSearchParams({
      client_id: clientId,
      redirect_uri: REDIRECT,
      response_type: 'code',
      scope: 'check-status',
      state: 's-9207',
      ...params,
    });
    return ada.get(`/oauth/authorize?${query}`);
  };

  const decide = async (params: Record<string, string>, deny = false) => {
    const page = await authorize(params);
    expect(page.status).toBe(200);
    const fields = approvalFields(await page.text());
    const res = await ada.post('/oauth/authorize', deny ? { ...fields, _method: 'DELETE' } : fields);
    expect(res.status).toBe(302);
    return new URL(res.headers.get('location')!);
  };

  it('RFC 9207 §2: the code response carries iss, and oauth4webapi validates it', async () => {
    const location = await decide({});
    expect(location.searchParams.get('iss')).toBe(ISSUER);
    const params = oauth.validateAuthResponse(as, { client_id: clientId }, location, 's-9207');
    expect(params.get('code')).toMatch(/^[\w-]{43}$/);
    // A mix-up: the same response read as another server's is refused (RFC 9207 §2.4).
    expect(() =>
      oauth.validateAuthResponse(
        { ...as, issuer: 'https://other.example' },
        { client_id: clientId },
        location,
        's-9207',
      ),
    ).toThrow(/unexpected "iss"/);
  });

  it('RFC 9207 §2: error responses carry iss too: the denial and a redirected invalid_scope', async () => {
    const denied = await decide({}, true);
    expect(() => oauth.validateAuthResponse(as, { client_id: clientId }, denied, 's-9207')).toThrow(
      oauth.AuthorizationResponseError,
    );
    expect(denied.searchParams.get('error')).toBe('access_denied');
    expect(denied.searchParams.get('iss')).toBe(ISSUER);

    const bad = await authorize({ scope: 'launch-missiles' });
    expect(bad.status).toBe(302);
    const location = new URL(bad.headers.get('location')!);
    let error: unknown;
    try {
      oauth.validateAuthResponse(as, { client_id: clientId }, location, 's-9207');
    } catch (err) {
      error = err;
    }
    expect(error).toBeInstanceOf(oauth.AuthorizationResponseError);
    expect((error as oauth.AuthorizationResponseError).error).toBe('invalid_scope');
  });

  it('RFC 9207 §2: the implicit response carries iss in the fragment', async () => {
    const location = await decide({ response_type: 'token' });
    expect(location.search).toBe('');
    const fragment = new URLSearchParams(location.hash.slice(1));
    expect(fragment.get('access_token')).toBeTypeOf('string');
    const params = oauth.validateAuthResponse(as, { client_id: clientId }, fragment, 's-9207');
    expect(params.get('iss')).toBe(ISSUER);
  });
});

describe(`protected-resource metadata per API`, () => {
  let t: OAuthTestApp;

  beforeAll(async () => {
    t = await oauthApp({
      engine: ANY_ENGINE,
      config: {
        oauth: {
          protectedResources: [
            {
              resource: `${ISSUER}/mcp`,
              scopes: ['check-status'],
              name: 'Orders MCP server',
              documentation: `${ISSUER}/docs/mcp`,
            },
            { resource: `${ISSUER}/api/v2/`, authorizationServers: ['https://login.example'] },
          ],
        },
      },
    });
  });
  afterAll(async () => t.stop());

  it('RFC 9728 §3.1: each resource is served at the well-known path inserted before its own path', async () => {
    const mcp = new URL(`${ISSUER}/mcp`);
    const metadata = await oauth.processResourceDiscoveryResponse(
      mcp,
      await oauth.resourceDiscoveryRequest(mcp, toServer(t)),
    );
    expect(metadata).toEqual({
      resource: `${ISSUER}/mcp`,
      authorization_servers: [ISSUER],
      scopes_supported: ['check-status'],
      bearer_methods_supported: ['header'],
      resource_name: 'Orders MCP server',
      resource_documentation: `${ISSUER}/docs/mcp`,
    });
    const v2 = new URL(`${ISSUER}/api/v2/`);
    const other = await oauth.processResourceDiscoveryResponse(
      v2,
      await oauth.resourceDiscoveryRequest(v2, toServer(t)),
    );
    expect(other).toMatchObject({
      resource: `${ISSUER}/api/v2/`,
      authorization_servers: ['https://login.example'],
    });
  });

  it('an unknown resource path, and the application itself when not listed, are 404', async () => {
    for (const path of ['', '/nope', '/mcp/extra', '/api/v2']) {
      const res = await fetch(`${t.url}/.well-known/oauth-protected-resource${path}`);
      expect(res.status, path).toBe(404);
    }
  });

  it('RFC 9728 §4: the authorization server metadata lists the protected resources', async () => {
    const res = await fetch(`${t.url}/.well-known/oauth-authorization-server`);
    expect(await res.json()).toMatchObject({ protected_resources: [`${ISSUER}/mcp`, `${ISSUER}/api/v2/`] });
  });
});
