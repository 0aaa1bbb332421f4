import type { Context } from 'hono';
import { ConfigKey, type TollgateConfig } from 'tollgate';
import { Clients, PersonalAccessTokens } from 'tollgate/oauth';
import { renderPage } from 'tollgate/views';
import type { AppUser } from '../../user.js';
import { SUBSCRIPTION, subscriptionSummary, subscriptionView } from '../billing-view.js';
import { OverviewPage } from '../pages/overview-page.js';
import { scriptUrl } from '../scripts.js';

/** `/dashboard`; the clients page is `ClientsPageController`'s, the tokens page `ApiKeysPageController`'s. */
export class DashboardController {
  static inject = [ConfigKey, Clients, PersonalAccessTokens] as const;

  constructor(
    private readonly config: TollgateConfig,
    private readonly clients: Clients,
    private readonly tokens: PersonalAccessTokens,
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
}
