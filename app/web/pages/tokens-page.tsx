import type { FC } from 'hono/jsx';
import { ApiKeysSection, type ApiKeysSectionProps } from './api-keys-section.js';
import { DashboardFrame } from './frame.js';
import { ScopeChecks } from './scope-checks.js';

export interface TokensPageProps {
  script: string;
  scopes: Array<{ id: string; description: string }>;
  apiKeys: ApiKeysSectionProps;
}

/**
 * `/dashboard/tokens`: API keys (server-rendered), personal access tokens and authorized
 * applications (script: app/assets/tokens.ts).
 */
export const TokensPage: FC<TokensPageProps> = ({ script, scopes, apiKeys }) => (
  <DashboardFrame current="tokens" title="API tokens" script={script}>
    <ApiKeysSection {...apiKeys} />
    <section class="card" data-personal-tokens>
      <h2>Personal access tokens</h2>
      <p class="muted">
        Tokens for your own scripts and tools. Send one as <code>Authorization: Bearer &lt;token&gt;</code>.
      </p>
      <div data-secret-slot />
      <form data-token-form novalidate>
        <div class="field">
          <label for="field-token-name">Name</label>
          <input
            id="field-token-name"
            name="name"
            type="text"
            autocomplete="off"
            placeholder="CI deploy script"
          />
        </div>
        <ScopeChecks scopes={scopes} />
        <div data-form-error />
        <div class="actions mt-0">
          <button type="submit" class="btn btn-primary">
            Create token
          </button>
        </div>
      </form>
      <div class="table-wrap hidden mt-lg">
        <table class="table stack-sm">
          <tbody data-list />
        </table>
      </div>
      <p class="muted hidden mt-lg" data-empty>
        You have no personal access tokens.
      </p>
    </section>
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
