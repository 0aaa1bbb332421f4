import type { Context } from 'hono';
import { csrfToken, ValidationError } from 'tollgate';
import {
  ApiKeys,
  AuthorizedApps,
  apiKeyInput,
  OAuthError,
  PersonalAccessTokens,
  Scopes,
} from 'tollgate/oauth';
import { renderPage } from 'tollgate/views';
import { DashboardScopes } from '../dashboard-scope.js';
import type { ApiKeysSectionProps } from '../pages/api-keys-section.js';
import type { PersonalTokensSectionProps } from '../pages/personal-tokens-section.js';
import { TokensPage } from '../pages/tokens-page.js';
import { scriptUrl } from '../scripts.js';

/**
 * The API keys of `/dashboard/tokens` as plain form posts: create answers with the page itself
 * (the new key shown once, never stored in the session), a refused create with the page and the
 * field messages (422); revoke redirects back with a flashed message. Authorized applications are
 * revoked the same way. With `?organization_id=` (the switcher) the keys are the organization's
 * and the tokens the user's ones acting for it.
 */
export class ApiKeysPageController {
  static inject = [ApiKeys, Scopes, PersonalAccessTokens, AuthorizedApps, DashboardScopes] as const;

  constructor(
    protected readonly keys: ApiKeys,
    protected readonly scopes: Scopes,
    protected readonly personalTokens: PersonalAccessTokens,
    protected readonly authorizedApps: AuthorizedApps,
    protected readonly dashboardScopes: DashboardScopes,
  ) {}

  /** `GET /dashboard/tokens`. */
  show(c: Context): Promise<Response> {
    return this.page(c);
  }

  /** The tokens page, with the API keys section (and the personal tokens section) as given. */
  async page(
    c: Context,
    section: Partial<ApiKeysSectionProps> = {},
    status = 200,
    tokensSection: Partial<PersonalTokensSectionProps> = {},
  ): Promise<Response> {
    const user = c.get('user')!;
    const scope = await this.dashboardScopes.read(c);
    const { organizationId } = scope;
    const common = { csrfToken: csrfToken(c), scopes: this.scopes.all() };
    const keys =
      organizationId === undefined
        ? await this.keys.forUser(user.id)
        : await this.keys.forOrganization(user.id, organizationId);
    const apiKeys = { ...common, keys, ...section };
    const ownTokens = await this.personalTokens.forUser(user.id, organizationId);
    const tokens = { ...common, tokens: ownTokens, ...tokensSection };
    const apps = { csrfToken: common.csrfToken, apps: await this.authorizedApps.forUser(user.id) };
    const page = (
      <TokensPage
        script={await scriptUrl()}
        apiKeys={apiKeys}
        personalTokens={tokens}
        authorizedApps={apps}
        scope={scope}
      />
    );
    const res = await renderPage(c, { title: 'API tokens', status }, page);
    res.headers.set('Cache-Control', 'no-store');
    return res;
  }

  async store(c: Context): Promise<Response> {
    const form = await c.req.parseBody({ all: true });
    const text = (value: unknown) => (typeof value === 'string' ? value : undefined);
    const old = {
      name: text(form.name),
      scopes: ([] as unknown[]).concat(form.scopes ?? []).filter((s): s is string => typeof s === 'string'),
      expires_in_days: text(form.expires_in_days),
      rate_limit_per_minute: text(form.rate_limit_per_minute),
    };
    const { organizationId } = await this.dashboardScopes.read(c);
    try {
      const input = { ...apiKeyInput(this.scopes, form, true), organizationId };
      const { plainKey, key } = await this.keys.create(c.get('user')!.id, input);
      return await this.page(c, { created: { name: key.name, key: plainKey } }, 201);
    } catch (err) {
      if (err instanceof ValidationError) return this.page(c, { errors: err.errors, old }, 422);
      if (err instanceof OAuthError) return this.page(c, { errors: { scopes: [err.description] }, old }, 422);
      throw err;
    }
  }

  async destroy(keyId: string, c: Context): Promise<Response> {
    const user = c.get('user')!;
    const { organizationId, query } = await this.dashboardScopes.read(c);
    const key =
      organizationId === undefined
        ? await this.keys.findForUser(keyId, user.id)
        : await this.keys.findForOrganization(keyId, user.id, organizationId);
    const revoked = key !== undefined && (await this.keys.revoke(key));
    c.get('session')?.flash(
      revoked ? 'status' : 'error',
      revoked ? `API key “${key!.name}” revoked.` : 'That API key was already revoked.',
    );
    return c.redirect(`/dashboard/tokens${query}#api-keys`, 303);
  }

  /** `DELETE /dashboard/authorized-apps/{client}`: revokes every token the application holds. */
  async revokeApp(clientId: string, c: Context): Promise<Response> {
    const app = await this.authorizedApps.revoke(c.get('user')!.id, clientId);
    c.get('session')?.flash(
      app ? 'status' : 'error',
      app ? `Access for “${app.name}” revoked.` : 'That application had no access left.',
    );
    return c.redirect('/dashboard/tokens#authorized-apps', 303);
  }
}
