import type { FC } from 'hono/jsx';
import type { AccessTokenRecord } from 'tollgate/oauth';
import { CsrfField } from 'tollgate/views';
import { DeleteForm, LastUsedCell, ScopeBadges } from './credential-cells.js';
import { displayDate } from './frame.js';
import { NameAndScopes } from './scope-checks.js';

export interface PersonalTokensSectionProps {
  csrfToken: string;
  tokens: AccessTokenRecord[];
  scopes: Array<{ id: string; description: string }>;
  /** The token just created (or regenerated in place of an old one): shown this once. */
  created?: { id: string; name: string; token: string; regenerated?: boolean };
  /** A refused create: the field messages and what was typed. */
  errors?: Record<string, string[]>;
  old?: { name?: string; scopes?: string[] };
  /** `?organization_id=…` in an organization's scope (the user's tokens acting for it); '' for their own. */
  query?: string;
}

/**
 * Personal access tokens on `/dashboard/tokens`, rendered on the server: the list, a real form post
 * to create one (the token shown once in the answer) and forms per token to regenerate or delete it. The script
 * (app/assets/tokens.ts) takes the same form over with the JSON API when it runs.
 */
export const PersonalTokensSection: FC<PersonalTokensSectionProps> = (props) => {
  const { csrfToken, tokens, scopes, created, errors, old, query = '' } = props;
  return (
    <section class="card" id="personal-tokens" data-personal-tokens>
      <h2>Personal access tokens</h2>
      <p class="muted">
        Tokens for your own scripts and tools. Send one as <code>Authorization: Bearer &lt;token&gt;</code>.
      </p>
      <div data-secret-slot>
        {created ? (
          <div class="secret" role="status" data-secret data-secret-for={created.id}>
            <strong>
              Token “{created.name}”{' '}
              {created.regenerated ? 'regenerated: the old one no longer works' : 'created'}
            </strong>
            <p class="small muted">Copy it now: it is not stored anywhere you can read it again.</p>
            <div class="value">
              <span class="small">Token</span>
              <code data-value="Token">{created.token}</code>
            </div>
          </div>
        ) : null}
      </div>
      <form method="post" action={`/dashboard/personal-tokens${query}`} data-token-form novalidate>
        <CsrfField token={csrfToken} />
        <NameAndScopes id="field-token-name" placeholder="CI deploy script" {...{ scopes, old, errors }} />
        <div class="field">
          <label for="field-token-expiry">Expires</label>
          <select id="field-token-expiry" name="expires_in_days">
            <option value="">in a year (the default)</option>
            <option value="7">in 7 days</option>
            <option value="30">in 30 days</option>
            <option value="90">in 90 days</option>
          </select>
        </div>
        <div data-form-error />
        <div class="actions mt-0">
          <button type="submit" class="btn btn-primary">
            Create token
          </button>
        </div>
      </form>
      <div class={tokens.length ? 'table-wrap mt-lg' : 'table-wrap hidden mt-lg'}>
        <table class="table stack-sm">
          <tbody data-list>
            {tokens.map((token) => (
              <tr data-token={token.id}>
                <td>
                  <strong>{token.name ?? '(unnamed)'}</strong>
                </td>
                <ScopeBadges scopes={token.scopes} />
                <td class="small muted">Created {displayDate(token.createdAt)}</td>
                <td class="small muted">Expires {displayDate(token.expiresAt)}</td>
                <LastUsedCell at={token.lastUsedAt} />
                <td>
                  <div class="actions">
                    <form
                      method="post"
                      action={`/dashboard/personal-tokens/${token.id}/regenerate${query}`}
                      data-confirm={`Regenerate the token “${token.name ?? ''}”? Programs using it lose access until they get the new one.`}
                    >
                      <CsrfField token={csrfToken} />
                      <button type="submit" class="btn" data-regenerate={token.id}>
                        Regenerate
                      </button>
                    </form>
                    <DeleteForm
                      action={`/dashboard/personal-tokens/${token.id}${query}`}
                      csrfToken={csrfToken}
                      label="Delete"
                      confirm={`Delete the token “${token.name ?? ''}”? Programs using it lose access at once.`}
                      marker={{ 'data-delete': token.id }}
                    />
                  </div>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <p class={tokens.length ? 'muted hidden mt-lg' : 'muted mt-lg'} data-empty>
        You have no personal access tokens.
      </p>
    </section>
  );
};
