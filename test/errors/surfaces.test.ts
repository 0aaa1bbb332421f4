import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ProtectionApp, protectionApp } from '../protection/support.js';
import { ENGINES } from '../support/engines.js';
import { catalogue } from './doc.js';

const form = { 'content-type': 'application/x-www-form-urlencoded' };

/** The documented WWW-Authenticate of an api guard failure (docs/errors.md, catalogue:guard). */
function documentedChallenge(failure: string): string {
  const row = catalogue('guard').find(([name]) => name === failure);
  if (!row) throw new Error(`docs/errors.md documents no guard failure "${failure}"`);
  return row[2]!;
}

// The reference service's routes: each surface answers with the body docs/errors.md gives it.
/** RFC 9728 §5.1, as docs/errors.md says: every challenge ends with the resource's metadata URL. */
const METADATA = 'resource_metadata="http://localhost/.well-known/oauth-protected-resource"';
const withMetadata = (challenge: string) =>
  challenge === 'Bearer' ? `Bearer ${METADATA}` : `${challenge}, ${METADATA}`;

describe.each(ENGINES)('error bodies per surface (docs/errors.md) (%s)', (engine) => {
  let p: ProtectionApp;
  beforeAll(async () => {
    p = await protectionApp({ engine });
  });
  afterAll(() => p.stop());

  it('RFC 6750 §3.1: no credentials → 401 with a bare Bearer challenge, Laravel body', async () => {
    const res = await p.call('/api/user');
    expect(res.status).toBe(401);
    expect(res.headers.get('www-authenticate')).toBe(withMetadata(documentedChallenge('missing')));
    expect(res.headers.get('cache-control')).toBe('no-store');
    expect(await res.json()).toEqual({ message: 'Unauthenticated.' });
  });

  it('RFC 6750 §3.1: a bad bearer token → 401 invalid_token in the header only', async () => {
    const res = await p.call('/api/user', 'not.a.token');
    expect(res.status).toBe(401);
    expect(res.headers.get('www-authenticate')).toBe(withMetadata(documentedChallenge('invalid')));
    expect(await res.json()).toEqual({ message: 'Unauthenticated.' });
  });

  it('RFC 6750 §3.1: a token without the route scopes → 403 insufficient_scope naming them', async () => {
    const token = await p.passwordToken('check-status');
    const res = await p.call('/probe/all', token);
    expect(res.status).toBe(403);
    expect(res.headers.get('www-authenticate')).toBe(
      withMetadata(
        'Bearer error="insufficient_scope", error_description="The access token lacks a required scope.", scope="check-status place-orders"',
      ),
    );
    expect(await res.json()).toEqual({
      message: 'Invalid scope(s) provided.',
      error: 'insufficient_scope',
      error_description: 'The access token lacks a required scope.',
      scope: 'check-status place-orders',
    });
  });

  it('RFC 6749 §5.1/§5.2: token endpoint errors are { error, error_description }, not cached', async () => {
    const res = await fetch(`${p.url}/oauth/token`, {
      method: 'POST',
      headers: form,
      body: 'grant_type=magic',
    });
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({
      error: 'unsupported_grant_type',
      error_description: 'The authorization grant type is not supported.',
    });
    expect([res.headers.get('cache-control'), res.headers.get('pragma')]).toEqual(['no-store', 'no-cache']);
  });

  it('RFC 6749 §5.2: invalid_client → 401 with a Basic challenge', async () => {
    const res = await fetch(`${p.url}/oauth/token`, {
      method: 'POST',
      headers: form,
      body: new URLSearchParams({
        grant_type: 'client_credentials',
        client_id: p.passwordClient.client.id,
        client_secret: 'wrong',
      }),
    });
    expect(res.status).toBe(401);
    expect(res.headers.get('www-authenticate')).toBe('Basic realm="oauth"');
    expect(await res.json()).toEqual({
      error: 'invalid_client',
      error_description: 'Client authentication failed.',
    });
  });

  it('session auth: 401 { message } with no challenge (Known inconsistencies 1); CSRF: 419', async () => {
    const unauthenticated = await p.call('/oauth/clients');
    expect(unauthenticated.status).toBe(401);
    expect(unauthenticated.headers.get('www-authenticate')).toBeNull();
    expect(await unauthenticated.json()).toEqual({ message: 'Unauthenticated.' });

    const mismatch = await p.call('/oauth/clients', undefined, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{}',
    });
    expect([mismatch.status, await mismatch.json()]).toEqual([419, { message: 'CSRF token mismatch.' }]);
  });
});
