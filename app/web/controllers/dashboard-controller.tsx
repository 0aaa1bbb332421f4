import type { Context } from 'hono';
import { ConfigKey, type TollgateConfig } from 'tollgate';
import { Clients, PersonalAccessTokens, Scopes } from 'tollgate/oauth';
import { renderPage } from 'tollgate/views';
import type { AppUser } from '../../user.js';
import { SUBSCRIPTION, subscriptionSummary, subscriptionView } from '../billing-view.js';
import { ClientsPage } from '../pages/clients-page.js';
import { OverviewPage } from '../pages/overview-page.js';
import { TokensPage } from '../pages/tokens-page.js';
import { scriptUrl } from '../scripts.js';

/** `/dashboard`, `/dashboard/clients`, `/dashboard/tokens`. The lists are loaded by the page's script. */
export class DashboardController {
  static inject = [ConfigKey, Clients, PersonalAccessTokens, Scopes] as const;

  constructor(
    private readonly config: TollgateConfig,
    private readonly clients: Clients,
    private readonly tokens: PersonalAccessTokens,
    private readonly scopes: Scopes,
  ) {}

  async overview(c: Context): Promise<Response> {
    const user = c.get('user') as AppUser;
    const [clients, tokens, sub] = await Promise.all([
      this.clients.forUser(user.id),
      this.tokens.forUser(user.id),
      user.subscription(SUBSCRIPTION),
    ]);
    const active = tokens.filter((t) => !t.revoked);
    return renderPage(
      c,
      { title: 'Dashboard' },
      <OverviewPage
        user={user}
        script={await scriptUrl()}
        subscription={subscriptionSummary(sub ? subscriptionView(this.config, sub) : undefined)}
        counts={{ clients: clients.length, tokens: active.length }}
      />,
    );
  }

  async clientsPage(c: Context): Promise<Response> {
    const base = this.config.app.url.replace(/\/+$/, '');
    return renderPage(
      c,
      { title: 'OAuth clients' },
      <ClientsPage script={await scriptUrl()} baseUrl={base} />,
    );
  }

  async tokensPage(c: Context): Promise<Response> {
    return renderPage(
      c,
      { title: 'API tokens' },
      <TokensPage script={await scriptUrl()} scopes={this.scopes.all()} />,
    );
  }
}
