import type { FC } from 'hono/jsx';
import { ApiKeysSection, type ApiKeysSectionProps } from './api-keys-section.js';
import { DashboardFrame } from './frame.js';
import { PersonalTokensSection, type PersonalTokensSectionProps } from './personal-tokens-section.js';

export interface TokensPageProps {
  script: string;
  apiKeys: ApiKeysSectionProps;
  personalTokens: PersonalTokensSectionProps;
}

/**
 * `/dashboard/tokens`: API keys and personal access tokens (server-rendered, real form posts; the
 * script enhances the tokens form) and authorized applications (script: app/assets/tokens.ts).
 */
export const TokensPage: FC<TokensPageProps> = ({ script, apiKeys, personalTokens }) => (
  <DashboardFrame current="tokens" title="API tokens" script={script}>
    <ApiKeysSection {...apiKeys} />
    <PersonalTokensSection {...personalTokens} />
    <section class="card" data-authorized-apps>
      <h2>Authorized applications</h2>
      <p class="muted">
        Applications you allowed to use your account. Revoking one signs it out at once, and it has to ask you
        again before it gets back in.
      </p>
      <div class="table-wrap hidden">
        <table class="table stack-sm">
          <tbody data-list />
        </table>
      </div>
      <p class="muted hidden" data-empty>
        You have not authorized any applications.
      </p>
    </section>
  </DashboardFrame>
);
