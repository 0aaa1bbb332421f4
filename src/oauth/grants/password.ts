import { OAuthError } from '../errors.js';
import { Scopes } from '../scopes.js';
import { toTokenResponse } from '../tokens/token-issuer.js';
import { type Grant, required } from './grant.js';

/**
 * RFC 6749 §4.3, for first-party password grant clients only. `username` is the e-mail; `*` (all
 * scopes) may be requested here and nowhere else.
 */
export const passwordGrant: Grant = {
  grantType: 'password',
  async handle(request, context) {
    const client = await context.client(request, 'password');
    const username = required(request, 'username');
    const password = required(request, 'password');
    const scopes = context.scopes.validate(Scopes.parse(request.params.scope), { allowAll: true });
    const user = await context.users.attempt(username, password);
    if (!user) throw OAuthError.invalidGrant('The user credentials were incorrect.');
    // Signed before the transaction: on SQLite it holds the only connection (token-issuer.ts).
    const issued = await context.issuer.prepare({
      client,
      userId: user.id,
      scopes,
      ttlSeconds: context.config.accessTokenTtlSeconds,
      refresh: { ttlSeconds: context.config.refreshTokenTtlSeconds },
    });
    await context.store.transaction((store) => context.issuer.save(issued, store));
    await context.issuer.announce(issued);
    return toTokenResponse(issued);
  },
};
