import type { FC } from 'hono/jsx';
import type { DashboardScope } from '../dashboard-scope.js';
import { ApiKeysSection, type ApiKeysSectionProps } from './api-keys-section.js';
import { AuthorizedAppsSection, type AuthorizedAppsSectionProps } from './authorized-apps-section.js';
import { DashboardFrame } from './frame.js';
import { PersonalTokensSection, type PersonalTokensSectionProps } from './personal-tokens-section.js';

export interface TokensPageProps {
  script: string;
  apiKeys: ApiKeysSectionProps;
  personalTokens: PersonalTokensSectionProps;
  authorizedApps: AuthorizedAppsSectionProps;
  /** Whose credentials: the user's own, or an organization's (the switcher's choice). */
  scope: DashboardScope;
}

/**
 * `/dashboard/tokens`: API keys, personal access tokens and authorized applications, all
 * server-rendered with real form posts; the script (app/assets/tokens.ts) enhances the tokens form.
 * In an organization's scope: its API keys and the user's tokens acting for it (authorizations
 * are the user's own, so they stay on the personal page).
 */
export const TokensPage: FC<TokensPageProps> = ({
  script,
  apiKeys,
  personalTokens,
  authorizedApps,
  scope,
}) => (
  <DashboardFrame current="tokens" title="API tokens" script={script} scope={scope}>
    <ApiKeysSection {...apiKeys} scope={scope} />
    <PersonalTokensSection {...personalTokens} query={scope.query} />
    {scope.organizationId === undefined ? <AuthorizedAppsSection {...authorizedApps} /> : null}
  </DashboardFrame>
);
