import type { FC } from 'hono/jsx';
import { ApiKeysSection, type ApiKeysSectionProps } from './api-keys-section.js';
import { AuthorizedAppsSection, type AuthorizedAppsSectionProps } from './authorized-apps-section.js';
import { DashboardFrame } from './frame.js';
import { PersonalTokensSection, type PersonalTokensSectionProps } from './personal-tokens-section.js';

export interface TokensPageProps {
  script: string;
  apiKeys: ApiKeysSectionProps;
  personalTokens: PersonalTokensSectionProps;
  authorizedApps: AuthorizedAppsSectionProps;
}

/**
 * `/dashboard/tokens`: API keys, personal access tokens and authorized applications, all
 * server-rendered with real form posts; the script (app/assets/tokens.ts) enhances the tokens form.
 */
export const TokensPage: FC<TokensPageProps> = ({ script, apiKeys, personalTokens, authorizedApps }) => (
  <DashboardFrame current="tokens" title="API tokens" script={script}>
    <ApiKeysSection {...apiKeys} />
    <PersonalTokensSection {...personalTokens} />
    <AuthorizedAppsSection {...authorizedApps} />
  </DashboardFrame>
);
