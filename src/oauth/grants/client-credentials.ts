import { Scopes } from '../scopes.js';
import { defineGrant } from './grant.js';

/** RFC 6749 §4.4: a confidential client acting for itself; no user, no refresh token (§4.4.3). */
export const clientCredentialsGrant = defineGrant({
  grantType: 'client_credentials',
  parameters: { required: [], optional: ['scope', 'resource'] },
  async handle({ client, params }, services) {
    const scopes = services.scopes.validate(Scopes.parse(params.scope), { allowAll: false });
    // One insert, no transaction: issuance is bounded by the signature (DESIGN.md quality bars).
    const issued = await services.issuer.issue({
      client,
      userId: null,
      scopes,
      ttlSeconds: services.config.accessTokenTtlSeconds,
      audience: params.resource ?? null,
    });
    return issued.response;
  },
});
