import * as oauth from 'oauth4webapi';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { referenceConfig } from '../../app/config.js';
import { ENGINES } from '../support/engines.js';
import { type ProtectionApp, protectionApp } from './support.js';

const ISSUER = 'http://localhost';
const json = { accept: 'application/json' };

/**
 * RFC 9728 §5.1 and RFC 6750 §3: every refusal at a protected route carries a `Bearer` challenge
 * whose `resource_metadata` names the metadata of the resource the request was for, so a client
 * that knows only the API's URL (an MCP client) finds its authorization server from the first 401.
 */
describe.each(ENGINES)("the 401 challenge points at the resource's metadata (%s)", (engine) => {
  let t: ProtectionApp;
  const toServer = () => ({
    [oauth.allowInsecureRequests]: true,
    [oauth.customFetch]: (url: string, init: RequestInit) => fetch(url.replace(ISSUER, t.url), init),
  });

  beforeAll(async () => {
    t = await protectionApp({
      engine,
      config: {
        oauth: {
          ...referenceConfig.oauth,
          protectedResources: [
            { resource: ISSUER, name: 'Reference API' },
            { resource: `${ISSUER}/api/orders`, scopes: ['check-status', 'place-orders'], name: 'Orders' },
          ],
        },
      },
    });
  });
  afterAll(async () => t.stop());

  it('no credentials: 401 Bearer resource_metadata, and the document it names leads to the issuer', async () => {
    const res = await fetch(`${t.url}/api/orders`, { headers: json });
    expect(res.status).toBe(401);
    expect(res.headers.get('www-authenticate')).toBe(
      `Bearer resource_metadata="${ISSUER}/.well-known/oauth-protected-resource/api/orders"`,
    );
    expect(await res.json()).toEqual({ message: 'Unauthenticated.' });

    const resource = new URL(`${ISSUER}/api/orders`);
    const metadata = await oauth.processResourceDiscoveryResponse(
      resource,
      await oauth.resourceDiscoveryRequest(resource, toServer()),
    );
    expect(metadata.authorization_servers).toEqual([ISSUER]);
    const as = await oauth.processDiscoveryResponse(
      new URL(ISSUER),
      await oauth.discoveryRequest(new URL(metadata.authorization_servers![0]!), toServer()),
    );
    expect(as.token_endpoint).toBe(`${ISSUER}/oauth/token`);
  });

  it('a path under a resource belongs to it; any other path to the resource at the root', async () => {
    const status = await fetch(`${t.url}/api/orders/1/status`, { headers: json });
    expect(status.headers.get('www-authenticate')).toContain(
      `resource_metadata="${ISSUER}/.well-known/oauth-protected-resource/api/orders"`,
    );
    const user = await fetch(`${t.url}/api/user`, { headers: json });
    expect(user.headers.get('www-authenticate')).toBe(
      `Bearer resource_metadata="${ISSUER}/.well-known/oauth-protected-resource"`,
    );
  });

  it('a bad token: invalid_token with the metadata, as oauth4webapi parses it', async () => {
    const error = await oauth
      .protectedResourceRequest(
        'not-a-token',
        'GET',
        new URL(`${t.url}/api/orders`),
        new Headers(json),
        null,
        {
          [oauth.allowInsecureRequests]: true,
        },
      )
      .catch((err: unknown) => err);
    expect(error).toBeInstanceOf(oauth.WWWAuthenticateChallengeError);
    const [challenge] = (error as oauth.WWWAuthenticateChallengeError).cause;
    expect(challenge!.scheme).toBe('bearer');
    expect(challenge!.parameters.error).toBe('invalid_token');
    expect(challenge!.parameters.resource_metadata).toBe(
      `${ISSUER}/.well-known/oauth-protected-resource/api/orders`,
    );
  });

  it('a token without the scope: 403 insufficient_scope with the scope and the metadata', async () => {
    const token = await t.passwordToken('check-status');
    const res = await t.call('/api/orders', token, {
      method: 'POST',
      headers: { ...json, 'content-type': 'application/json' },
      body: '{}',
    });
    expect(res.status).toBe(403);
    const challenge = res.headers.get('www-authenticate')!;
    expect(challenge).toMatch(/^Bearer error="insufficient_scope"/);
    expect(challenge).toContain('scope="place-orders"');
    expect(challenge).toContain(
      `resource_metadata="${ISSUER}/.well-known/oauth-protected-resource/api/orders"`,
    );
  });

  it('a request that does not ask for JSON gets the same challenge', async () => {
    const res = await fetch(`${t.url}/api/user`, { redirect: 'manual' });
    expect(res.status).toBe(401);
    expect(res.headers.get('www-authenticate')).toBe(
      `Bearer resource_metadata="${ISSUER}/.well-known/oauth-protected-resource"`,
    );
  });
});
