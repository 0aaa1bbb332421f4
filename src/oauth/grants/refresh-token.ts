import { OAuthError } from '../errors.js';
import { ALL_SCOPES, Scopes } from '../scopes.js';
import { hashSecret } from '../secrets.js';
import { toTokenResponse } from '../tokens/token-issuer.js';
import { type Grant, required } from './grant.js';

/**
 * RFC 6749 §6 with rotation (RFC 9700 §4.14.2): every use issues a new refresh token and retires
 * the old one with its access token; presenting a retired one revokes the whole chain. The
 * requested scope may narrow the grant, never widen it.
 */
export const refreshTokenGrant: Grant = {
  grantType: 'refresh_token',
  async handle(request, context) {
    const client = await context.client(request, 'refresh_token');
    const id = hashSecret(required(request, 'refresh_token'));
    const stored = await context.store.refreshTokens.find(id);
    const previous = stored && (await context.store.accessTokens.find(stored.accessTokenId));
    if (!stored || !previous || previous.clientId !== client.id) {
      throw OAuthError.invalidGrant('The refresh token is invalid.', 'unknown token or other client');
    }
    if (stored.revoked) {
      await context.revoker.revokeFamily(stored.familyId);
      throw OAuthError.invalidGrant('The refresh token has been revoked.');
    }
    if (stored.expiresAt <= context.clock.now().toISOString()) {
      throw OAuthError.invalidGrant('The refresh token has expired.');
    }
    const scopes = narrowScopes(previous.scopes, Scopes.parse(request.params.scope));
    context.scopes.validate(scopes, { allowAll: previous.scopes.includes(ALL_SCOPES) });

    // Signed before the transaction: on SQLite it holds the only connection (token-issuer.ts).
    const prepared = await context.issuer.prepare({
      client,
      userId: previous.userId,
      scopes,
      ttlSeconds: context.config.accessTokenTtlSeconds,
      refresh: { ttlSeconds: context.config.refreshTokenTtlSeconds, familyId: stored.familyId },
    });
    const result = await context.store.transaction(async (store) => {
      if (!(await store.refreshTokens.consume(id))) return undefined;
      const revoked = await context.revoker.revokeAccessTokens([previous.id], store);
      await context.issuer.save(prepared, store);
      return { issued: prepared, revoked };
    });
    if (!result) {
      // Another request used this refresh token first: treat it as reuse.
      await context.revoker.revokeFamily(stored.familyId);
      throw OAuthError.invalidGrant('The refresh token has been revoked.');
    }
    await context.revoker.announce(result.revoked);
    await context.issuer.announce(result.issued);
    return toTokenResponse(result.issued);
  },
};

/** An empty scope keeps the original grant; anything else must be a subset of it. */
function narrowScopes(original: readonly string[], requested: readonly string[]): string[] {
  if (requested.length === 0) return [...original];
  if (original.includes(ALL_SCOPES)) return [...requested];
  const widened = requested.filter((scope) => !original.includes(scope));
  if (widened.length > 0) {
    throw OAuthError.invalidScope(`The refresh token does not grant the scope "${widened[0]}".`);
  }
  return [...requested];
}
