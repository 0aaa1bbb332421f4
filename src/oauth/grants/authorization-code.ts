import { OAuthError } from '../errors.js';
import { authTimeClaim } from '../oidc/id-tokens.js';
import { verifyCodeVerifier } from '../rules/check-pkce.js';
import { narrowResource } from '../rules/check-resource.js';
import { hashSecret, safeEqual } from '../secrets.js';
import { defineGrant, type GrantServices, userTokens } from './grant.js';

/**
 * RFC 6749 §4.1.3 with PKCE (RFC 7636 §4.5) and single-use codes (§4.1.2, RFC 9700 §4.2.4); with
 * the `openid` scope, an ID token beside the access token (OpenID Connect Core §3.1.3.3).
 */
export const authorizationCodeGrant = defineGrant({
  grantType: 'authorization_code',
  parameters: { required: ['code', 'redirect_uri'], optional: ['code_verifier', 'resource'] },
  async handle({ client, params, dpopJkt }, services) {
    const id = hashSecret(params.code);
    const stored = await services.store.authCodes.find(id);
    if (!stored || !safeEqual(stored.id, id) || stored.clientId !== client.id) {
      throw OAuthError.invalidGrant('The authorization code is invalid.', 'unknown code or other client');
    }
    if (stored.revoked) {
      // §4.1.2: a code used twice revokes what the first use issued.
      if (stored.accessTokenId) await revokeChain(services, stored.accessTokenId);
      throw OAuthError.invalidGrant('The authorization code has already been used.');
    }
    if (stored.expiresAt <= services.clock.now().toISOString()) {
      throw OAuthError.invalidGrant('The authorization code has expired.');
    }
    if (stored.redirectUri !== params.redirect_uri) {
      throw OAuthError.invalidGrant('The redirect_uri does not match the authorization request.');
    }
    verifyCodeVerifier(stored, params.code_verifier);
    // RFC 9449 §10: a code bound by `dpop_jkt` needs a proof by that key; the code stays usable.
    if (stored.dpopJkt && stored.dpopJkt !== dpopJkt) {
      throw OAuthError.invalidDpopProof(
        dpopJkt === undefined ? 'dpop_jkt code without a proof' : 'proof key is not the dpop_jkt',
      );
    }
    const audience = narrowResource(stored.resource ?? null, params.resource ?? null);
    // OpenID Connect Core §3.1.3.3: the user's claims are read before anything is issued.
    const idToken = services.idTokens.wanted(stored.scopes)
      ? await services.idTokens.prepare({
          clientId: client.id,
          userId: stored.userId,
          scopes: stored.scopes,
          nonce: stored.nonce ?? null,
          authTime: authTimeClaim(stored.authTime),
          sid: stored.sid ?? null,
          amr: stored.amr ?? null,
          claims: stored.claims ?? null,
        })
      : undefined;

    const issued = await services.issuer.issue(
      userTokens(services, client, stored.userId, stored.scopes, audience, {
        authTime: stored.authTime ?? null,
        sid: stored.sid ?? null,
        amr: stored.amr ?? null,
        claims: stored.claims ?? null,
      }),
      // A concurrent exchange of the same code loses here and is treated as reuse below. The
      // code points at the access token before that row exists: no foreign key, same commit.
      ({ store, accessTokenId }) => store.authCodes.consume(id, accessTokenId),
    );
    if (issued) {
      if (idToken) issued.response.id_token = await idToken(issued.accessToken, issued.record.id);
      return issued.response;
    }
    const again = await services.store.authCodes.find(id);
    if (again?.accessTokenId) await revokeChain(services, again.accessTokenId);
    throw OAuthError.invalidGrant('The authorization code has already been used.');
  },
});

/** Revokes an access token, its refresh token and every later token of that refresh chain. */
async function revokeChain(services: GrantServices, accessTokenId: string): Promise<void> {
  const refresh = await services.store.refreshTokens.findByAccessToken(accessTokenId);
  if (refresh) await services.revoker.revokeFamily(refresh.familyId);
  await services.revoker.revoke(accessTokenId);
}
