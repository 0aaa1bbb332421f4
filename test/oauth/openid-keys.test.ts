import * as oauth from 'oauth4webapi';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rotateKeys } from '../../src/oauth/keys/rotation.js';
import { SigningKeys } from '../../src/oauth/keys/signing-keys.js';
import { ENGINES } from '../support/engines.js';
import {
  authorizeInBrowser,
  openIdClient,
  openIdRequest,
  publicClientFlow,
  verifySignatureAndAtHash,
} from './openid-support.js';
import { ADA, Browser, insecure, type OAuthTestApp, oauthApp, REDIRECT } from './support.js';

describe.each(ENGINES)(
  'OpenID Connect: ID tokens on refresh, after a key rotation, for concurrent exchanges (%s)',
  (engine) => {
    let t: OAuthTestApp;
    let ada: Browser;

    beforeAll(async () => {
      t = await oauthApp({ engine });
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
      const { protectedHeader: next } = await verifySignatureAndAtHash(
        t,
        after.id_token!,
        after.access_token,
      );
      expect(next.kid).toBe(rotated.kid);
      const { protectedHeader: previous } = await verifySignatureAndAtHash(
        t,
        before.id_token!,
        before.access_token,
      );
      expect(previous.kid).toBe(rotated.retired.kid);
    });

    it('Core §12.2: a refresh answers a new ID token — same sub, aud and auth_time, a new iat, no nonce', async () => {
      const { client, request, response } = await publicClientFlow(t, ada);
      const first = await oauth.processAuthorizationCodeResponse(t.as, client, response, {
        expectedNonce: request.nonce,
      });
      const original = oauth.getValidatedIdTokenClaims(first)!;
      let refreshToken = first.refresh_token!;
      // Twice down the rotation chain, a minute apart: auth_time stays the login's.
      for (let round = 1; round <= 2; round++) {
        t.clock.advance(60_000);
        const later = openIdClient(t, client.client_id);
        const res = await oauth.refreshTokenGrantRequest(t.as, later, oauth.None(), refreshToken, insecure);
        const tokens = await oauth.processRefreshTokenResponse(t.as, later, res);
        const claims = oauth.getValidatedIdTokenClaims(tokens)!;
        expect(claims).toMatchObject({
          sub: original.sub,
          aud: original.aud,
          azp: client.client_id,
          auth_time: original.auth_time,
          iat: original.iat + 60 * round,
        });
        expect(claims).not.toHaveProperty('nonce');
        await verifySignatureAndAtHash(t, tokens.id_token!, tokens.access_token);
        refreshToken = tokens.refresh_token!;
      }
      // Narrowed to leave openid out: no ID token.
      const narrowed = await oauth.refreshTokenGrantRequest(t.as, client, oauth.None(), refreshToken, {
        ...insecure,
        additionalParameters: { scope: 'email' },
      });
      const body = (await narrowed.json()) as Record<string, unknown>;
      expect(body.scope).toBe('email');
      expect(body).not.toHaveProperty('id_token');
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
  },
);
