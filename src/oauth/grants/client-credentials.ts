import { Scopes } from '../scopes.js';
import { toTokenResponse } from '../tokens/token-issuer.js';
import type { Grant } from './grant.js';

/** RFC 6749 §4.4: a confidential client acting for itself; no user, no refresh token (§4.4.3). */
export const clientCredentialsGrant: Grant = {
  grantType: 'client_credentials',
  async handle(request, context) {
    const client = await context.client(request, 'client_credentials');
    const scopes = context.scopes.validate(Scopes.parse(request.params.scope), { allowAll: false });
    // One insert, no transaction: issuance is bounded by the signature (DESIGN.md quality bars).
    const issued = await context.issuer.issue({
      client,
      userId: null,
      scopes,
      ttlSeconds: context.config.accessTokenTtlSeconds,
    });
    await context.issuer.announce(issued);
    return toTokenResponse(issued);
  },
};
