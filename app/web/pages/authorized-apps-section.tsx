import type { FC } from 'hono/jsx';
import type { AuthorizedApp } from 'tollgate/oauth';
import { DeleteForm, LastUsedCell, ScopeBadges } from './credential-cells.js';
import { displayDate } from './frame.js';

export interface AuthorizedAppsSectionProps {
  csrfToken: string;
  apps: AuthorizedApp[];
}

/**
 * Applications the user authorized on `/dashboard/tokens`, rendered on the server, one row per
 * application with a form that revokes every token it holds (no script needed).
 */
export const AuthorizedAppsSection: FC<AuthorizedAppsSectionProps> = ({ csrfToken, apps }) => (
  <section class="card" id="authorized-apps" data-authorized-apps>
    <h2>Authorized applications</h2>
    <p class="muted">
      Applications you allowed to use your account. Revoking one signs it out at once, and it has to ask you
      again before it gets back in.
    </p>
    <div class={apps.length ? 'table-wrap' : 'table-wrap hidden'}>
      <table class="table stack-sm">
        <tbody data-list>
          {apps.map((app) => (
            <tr data-authorized={app.clientId}>
              <td>
                <strong>{app.name}</strong>
              </td>
              <ScopeBadges scopes={app.scopes} />
              <td class="small muted">Authorized {displayDate(app.since)}</td>
              <LastUsedCell at={app.lastUsedAt} />
              <td>
                <DeleteForm
                  action={`/dashboard/authorized-apps/${encodeURIComponent(app.clientId)}`}
                  csrfToken={csrfToken}
                  label="Revoke"
                  confirm={`Revoke access for “${app.name}”? It will have to ask you again.`}
                  marker={{ 'data-revoke': app.clientId }}
                />
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
    <p class={apps.length ? 'muted hidden' : 'muted'} data-empty>
      You have not authorized any applications.
    </p>
  </section>
);
