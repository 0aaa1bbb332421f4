import * as oauth from 'oauth4webapi';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rotateKeys } from '../../src/oauth/keys/rotation.js';
import { SigningKeys } from '../../src/oauth/keys/signing-keys.js';
import {
  authorizeInBrowser,
  openIdClient,
  openIdRequest,
  publicClientFlow,
  verifySignatureAndAtHash,
} from './openid-support.js';
import { ADA, Browser, insecure, type OAuthTestApp, oauthApp, REDIRECT } from './support.js';

const engine = process.env.TEST_DATABASE_URL ? 'postgres' : 'sqlite';

describe(`OpenID Connect: ID tokens, signing keys and concurrent exchanges (${engine})`, () => {
  let t: OAuthTestApp;
  let ada: Browser;

  beforeAll(async () => {
    t = await oauthApp();
    ada = new Browser(t.url);
    await ada.login(ADA);
  });
  afterAll(async () => t.stop());

  async function idToken() {
    const { client, request, response } = await publicClientFlow(t, ada);
    const tokens = await oauth.processAuthorizationCodeResponse(t.as, client, response, {
      expectedNonce: request.nonce,
    });
    return tokens;
  }

  it('after a key rotation, ID tokens carry the new kid; the JWKS verifies old and new ones', async () => {
    const before = await idToken();
    const rotated = await rotateKeys(t.storagePath, 'RS256', { now: t.clock.now() });
    t.app.container.make(SigningKeys).reset();
    const after = await idToken();
    const { protectedHeader: next } = await verifySignatureAndAtHash(t, after.id_token!, after.access_token);
    expect(next.kid).toBe(rotated.kid);
    const { protectedHeader: previous } = await verifySignatureAndAtHash(
      t,
      before.id_token!,
      before.access_token,
    );
    expect(previous.kid).toBe(rotated.retired.kid);
  });

  it('RFC 6749 §4.1.2: one code exchanged twice at once gives one ID token; the other request is invalid_grant', async () => {
    const { client: record } = await t.createClient({ confidential: false });
    const client = openIdClient(t, record.id);
    const request = await openIdRequest(record.id);
    const callback = await authorizeInBrowser(ada, request.path);
    const params = oauth.validateAuthResponse(t.as, client, callback, request.state);
    const exchange = () =>
      oauth.authorizationCodeGrantRequest(
        t.as,
        client,
        oauth.None(),
        params,
        REDIRECT,
        request.verifier,
        insecure,
      );
    const responses = await Promise.all([exchange(), exchange()]);
    const bodies = (await Promise.all(responses.map((res) => res.json()))) as Record<string, unknown>[];
    expect(responses.map((res) => res.status).sort()).toEqual([200, 400]);
    expect(bodies.filter((body) => typeof body.id_token === 'string')).toHaveLength(1);
    expect(bodies.find((body) => body.error)).toMatchObject({ error: 'invalid_grant' });
  });
});
