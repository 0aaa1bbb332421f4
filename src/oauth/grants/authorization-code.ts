import { OAuthError } from '../errors.js';
import { verifyCodeVerifier } from '../rules/check-pkce.js';
import { hashSecret, safeEqual } from '../secrets.js';
import { toTokenResponse } from '../tokens/token-issuer.js';
import { type Grant, required } from './grant.js';

/** RFC 6749 §4.1.3 with PKCE (RFC 7636 §4.5) and single-use codes (§4.1.2, RFC 9700 §4.2.4). */
export const authorizationCodeGrant: Grant = {
  grantType: 'authorization_code',
  async handle(request, context) {
    const client = await context.client(request, 'authorization_code');
    const code = required(request, 'code');
    const redirectUri = required(request, 'redirect_uri');
    const id = hashSecret(code);
    const stored = await context.store.authCodes.find(id);
    if (!stored || !safeEqual(stored.id, id) || stored.clientId !== client.id) {
      throw OAuthError.invalidGrant('The authorization code is invalid.', 'unknown code or other client');
    }
    if (stored.revoked) {
      // §4.1.2: a code used twice revokes what the first use issued.
      if (stored.accessTokenId) await revokeChain(context, stored.accessTokenId);
      throw OAuthError.invalidGrant('The authorization code has already been used.');
    }
    if (stored.expiresAt <= context.clock.now().toISOString()) {
      throw OAuthError.invalidGrant('The authorization code has expired.');
    }
    if (stored.redirectUri !== redirectUri) {
      throw OAuthError.invalidGrant('The redirect_uri does not match the authorization request.');
    }
    verifyCodeVerifier(stored, request.params.code_verifier);

    // Signed before the transaction: on SQLite it holds the only connection (token-issuer.ts).
    const prepared = await context.issuer.prepare({
      client,
      userId: stored.userId,
      scopes: stored.scopes,
      ttlSeconds: context.config.accessTokenTtlSeconds,
      refresh: { ttlSeconds: context.config.refreshTokenTtlSeconds },
    });
    const issued = await context.store.transaction(async (store) => {
      // A concurrent exchange of the same code loses here and is treated as reuse below. The
      // code points at the access token before that row exists: no foreign key, same commit.
      if (!(await store.authCodes.consume(id, prepared.record.id))) return undefined;
      await context.issuer.save(prepared, store);
      return prepared;
    });
    if (!issued) {
      const again = await context.store.authCodes.find(id);
      if (again?.accessTokenId) await revokeChain(context, again.accessTokenId);
      throw OAuthError.invalidGrant('The authorization code has already been used.');
    }
    await context.issuer.announce(issued);
    return toTokenResponse(issued);
  },
};

/** Revokes an access token, its refresh token and every later token of that refresh chain. */
async function revokeChain(context: Parameters<Grant['handle']>[1], accessTokenId: string): Promise<void> {
  const refresh = await context.store.refreshTokens.findByAccessToken(accessTokenId);
  if (refresh) await context.revoker.revokeFamily(refresh.familyId);
  await context.revoker.revoke(accessTokenId);
}
