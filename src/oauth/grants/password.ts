import { OAuthError } from '../errors.js';
import { Scopes } from '../scopes.js';
import { defineGrant, userTokens } from './grant.js';

/**
 * RFC 6749 §4.3, for first-party password grant clients only. `username` is the e-mail; `*` (all
 * scopes) may be requested here and nowhere else.
 */
export const passwordGrant = defineGrant({
  grantType: 'password',
  parameters: { required: ['username', 'password'], optional: ['scope', 'resource'] },
  async handle({ client, params }, services) {
    const scopes = services.scopes.validate(Scopes.parse(params.scope), { allowAll: true });
    const user = await services.users.attempt(params.username, params.password);
    if (!user) throw OAuthError.invalidGrant('The user credentials were incorrect.');
    const issued = await services.issuer.issue(
      userTokens(services, client, user.id, scopes, params.resource ?? null),
    );
    return issued.response;
  },
});
