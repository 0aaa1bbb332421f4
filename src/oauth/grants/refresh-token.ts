import { isForeignKeyViolation } from '../../database/errors.js';
import { OAuthError } from '../errors.js';
import { authTimeClaim } from '../oidc/id-tokens.js';
import { narrowResource } from '../rules/check-resource.js';
import { ALL_SCOPES, Scopes } from '../scopes.js';
import { hashSecret } from '../secrets.js';
import { defineGrant } from './grant.js';

/**
 * RFC 6749 §6 with rotation (RFC 9700 §4.14.2): every use issues a new refresh token and retires
 * the old one with its access token; presenting a retired one revokes the whole chain. The
 * requested scope may narrow the grant, never widen it; so may the requested resource (RFC 8707).
 * While `openid` is granted, a new ID token comes along (OpenID Connect Core §12.2).
 */
export const refreshTokenGrant = defineGrant({
  grantType: 'refresh_token',
  parameters: { required: ['refresh_token'], optional: ['scope', 'resource'] },
  async handle({ client, params, dpopJkt }, services) {
    const id = hashSecret(params.refresh_token);
    const found = await services.store.refreshTokens.findWithAccessToken(id);
    if (!found || found.accessToken.clientId !== client.id) {
      throw OAuthError.invalidGrant('The refresh token is invalid.', 'unknown token or other client');
    }
    const { refreshToken: stored, accessToken: previous } = found;
    if (stored.revoked) {
      await services.revoker.revokeFamily(stored.familyId);
      throw OAuthError.invalidGrant('The refresh token has been revoked.');
    }
    if (stored.expiresAt <= services.clock.now().toISOString()) {
      throw OAuthError.invalidGrant('The refresh token has expired.');
    }
    // RFC 9449 §5: a public client's refresh token is bound to the key it was issued with.
    if (stored.jkt && stored.jkt !== dpopJkt) {
      throw OAuthError.invalidDpopProof('the refresh token is bound to another DPoP key');
    }
    const scopes = narrowScopes(previous.scopes, Scopes.parse(params.scope));
    services.scopes.validate(scopes, { allowAll: previous.scopes.includes(ALL_SCOPES) });
    // RFC 8707 §2.2: the new token keeps the grant's resource; a grant bound to none may narrow.
    const audience = narrowResource(previous.audience ?? null, params.resource ?? null);
    // OpenID Connect Core §12.2: a new ID token, with the original auth_time and no nonce.
    const idToken =
      previous.userId !== null && services.idTokens.wanted(scopes)
        ? await services.idTokens.prepare({
            clientId: client.id,
            userId: previous.userId,
            scopes,
            nonce: null,
            authTime: authTimeClaim(stored.authTime),
            // Back-Channel Logout §2.1: the refreshed ID token names the same login session.
            sid: stored.sid ?? null,
            amr: stored.amr ?? null,
            claims: stored.claims ?? null,
          })
        : undefined;

    const issued = await services.issuer
      .issue(
        {
          client,
          userId: previous.userId,
          scopes,
          ttlSeconds: services.config.accessTokenTtlSeconds,
          audience,
          refresh: {
            ttlSeconds: services.config.refreshTokenTtlSeconds,
            familyId: stored.familyId,
            authTime: stored.authTime ?? null,
            sid: stored.sid ?? null,
            amr: stored.amr ?? null,
            claims: stored.claims ?? null,
          },
        },
        async ({ store, afterCommit }) => {
          if (!(await store.refreshTokens.consume(id))) return false;
          const revoked = await services.revoker.retireAccessTokens([previous.id], store);
          afterCommit(() => services.revoker.announce(revoked));
          return true;
        },
      )
      .catch(async (err: unknown) => {
        // The user was deleted behind the application's back (no cascade reached this grant).
        if (!isForeignKeyViolation(err)) throw err;
        await services.revoker.revokeFamily(stored.familyId);
        throw OAuthError.invalidGrant('The refresh token is invalid.', 'the user is gone');
      });
    if (issued) {
      if (idToken) issued.response.id_token = await idToken(issued.accessToken, issued.record.id);
      return issued.response;
    }
    // Another request used this refresh token first: treat it as reuse.
    await services.revoker.revokeFamily(stored.familyId);
    throw OAuthError.invalidGrant('The refresh token has been revoked.');
  },
});

/** An empty scope keeps the original grant; anything else must be a subset of it. */
function narrowScopes(original: readonly string[], requested: readonly string[]): string[] {
  if (requested.length === 0) return [...original];
  if (original.includes(ALL_SCOPES)) return [...requested];
  const widened = requested.filter((scope) => !original.includes(scope));
  if (widened.length > 0) {
    throw OAuthError.invalidScope('The refresh token does not grant a requested scope.', {
      detail: `widened to ${widened.join(' ').slice(0, 200)}`,
    });
  }
  return [...requested];
}
