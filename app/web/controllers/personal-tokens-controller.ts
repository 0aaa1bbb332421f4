import type { Context } from 'hono';
import { ValidationError } from 'tollgate';
import { personalTokenInput } from 'tollgate/oauth';
import { ApiKeysPageController } from './api-keys-controller.js';

/**
 * Personal access tokens of `/dashboard/tokens` as plain form posts (no JavaScript needed): create
 * answers with the page itself (the token shown once, never stored in the session), a refused
 * create with the page and the field messages (422); regenerate answers like create, with the new
 * token in place of the old; delete redirects back with a flashed message.
 */
// The same page as the API keys (one `page()` renders both sections), so it extends that controller.
export class PersonalTokensPageController extends ApiKeysPageController {
  async storeToken(c: Context): Promise<Response> {
    const form = await c.req.parseBody({ all: true });
    const old = {
      name: typeof form.name === 'string' ? form.name : undefined,
      scopes: ([] as unknown[]).concat(form.scopes ?? []).filter((s): s is string => typeof s === 'string'),
    };
    const { organizationId } = await this.dashboardScopes.read(c);
    let input: ReturnType<typeof personalTokenInput>;
    try {
      input = personalTokenInput(this.scopes, form);
    } catch (err) {
      if (err instanceof ValidationError) return this.page(c, {}, 422, { errors: err.errors, old });
      throw err;
    }
    const result = await this.personalTokens.create(c.get('user')!.id, input.name, input.scopes, {
      expiresInDays: input.expires_in_days,
      organizationId,
    });
    return this.page(c, {}, 201, {
      created: { id: result.token.id, name: input.name, token: result.accessToken },
    });
  }

  async regenerateToken(tokenId: string, c: Context): Promise<Response> {
    const { organizationId, query } = await this.dashboardScopes.read(c);
    const token = await this.personalTokens.findForUser(tokenId, c.get('user')!.id, organizationId);
    // Of two regenerations at once, the one that did not revoke the old token makes none.
    const result = token && (await this.personalTokens.regenerate(token));
    if (!result) {
      c.get('session')?.flash('error', 'That token was already regenerated or deleted.');
      return c.redirect(`/dashboard/tokens${query}#personal-tokens`, 303);
    }
    return this.page(c, {}, 200, {
      created: {
        id: result.token.id,
        name: result.token.name ?? '',
        token: result.accessToken,
        regenerated: true,
      },
    });
  }

  async destroyToken(tokenId: string, c: Context): Promise<Response> {
    const { organizationId, query } = await this.dashboardScopes.read(c);
    const token = await this.personalTokens.findForUser(tokenId, c.get('user')!.id, organizationId);
    // Of two deletions at once, the one that did not revoke it is told it was already deleted.
    const deleted = token !== undefined && (await this.personalTokens.revoke(token.id));
    c.get('session')?.flash(
      deleted ? 'status' : 'error',
      deleted ? `Token “${token!.name ?? ''}” deleted.` : 'That token was already deleted.',
    );
    return c.redirect(`/dashboard/tokens${query}#personal-tokens`, 303);
  }
}
