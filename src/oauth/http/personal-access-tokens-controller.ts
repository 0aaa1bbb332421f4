import type { Context } from 'hono';
import { PersonalAccessTokens, serializeToken } from '../personal/personal-access-tokens.js';
import { Scopes } from '../scopes.js';
import { notFound } from './clients-controller.js';
import { organizationScope } from './organization-scope.js';
import { personalAccessTokenSchema } from './schemas.js';
import { validateJson } from './validate.js';

/**
 * `/oauth/personal-access-tokens` (Passport's PersonalAccessTokenController); with
 * `?organization_id=`, the user's tokens acting for that organization.
 */
export class PersonalAccessTokensController {
  static inject = [PersonalAccessTokens, Scopes] as const;

  constructor(
    private readonly tokens: PersonalAccessTokens,
    private readonly scopes: Scopes,
  ) {}

  async index(c: Context): Promise<Response> {
    const list = await this.tokens.forUser(c.get('user')!.id, organizationScope(c));
    return c.json(list.map(serializeToken));
  }

  async store(c: Context): Promise<Response> {
    const organizationId = organizationScope(c);
    const input = await validateJson(c, personalAccessTokenSchema(this.scopes));
    const result = await this.tokens.create(c.get('user')!.id, input.name, input.scopes, {
      expiresInDays: input.expires_in_days,
      organizationId,
    });
    return c.json({ accessToken: result.accessToken, token: serializeToken(result.token) }, 200, {
      'Cache-Control': 'no-store',
    });
  }

  /**
   * `POST /oauth/personal-access-tokens/{token_id}/regenerate`: a new token with the same name,
   * scopes and lifetime (shown in this response only); the old one stops working. 404 once revoked.
   */
  async regenerate(tokenId: string, c: Context): Promise<Response> {
    const token = await this.tokens.findForUser(tokenId, c.get('user')!.id, organizationScope(c));
    const result = token && (await this.tokens.regenerate(token));
    if (!result) throw notFound();
    return c.json({ accessToken: result.accessToken, token: serializeToken(result.token) }, 200, {
      'Cache-Control': 'no-store',
    });
  }

  async destroy(tokenId: string, c: Context): Promise<Response> {
    const token = await this.tokens.findForUser(tokenId, c.get('user')!.id, organizationScope(c));
    // Of two deletions at once, the one that did not revoke it answers as for a deleted token.
    if (!token || !(await this.tokens.revoke(token.id))) throw notFound();
    return c.body(null, 204);
  }
}
