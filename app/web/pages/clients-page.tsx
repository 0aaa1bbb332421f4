import type { FC } from 'hono/jsx';
import type { ClientRecord } from 'tollgate/oauth';
import { CsrfField } from 'tollgate/views';
import type { DashboardScope } from '../dashboard-scope.js';
import { ClientRows, CreatedClientBox, type ShownClient } from './clients-list.js';
import { DashboardFrame } from './frame.js';

export interface ClientsPageProps {
  script: string;
  baseUrl: string;
  csrfToken: string;
  clients: ClientRecord[];
  /** Whose clients: the user's own, or an organization's (the switcher's choice). */
  scope: DashboardScope;
  created?: ShownClient;
  /** A refused create: the field messages and what was typed. */
  errors?: Record<string, string[]>;
  old?: { name?: string; redirect?: string; confidential?: boolean };
  /** The client being edited (`/dashboard/clients/{id}/edit`): the form changes it instead. */
  editing?: ClientRecord;
}

const FieldError: FC<{ messages?: string[] }> = ({ messages }) =>
  messages?.length ? <p class="error">{messages.join(' ')}</p> : null;

/**
 * `/dashboard/clients`: the OAuth clients the user registered, server-rendered with real form posts
 * (create, edit, delete); the script (app/assets/clients.ts) takes over with the JSON API.
 */
export const ClientsPage: FC<ClientsPageProps> = (props) => {
  const { script, baseUrl, csrfToken, clients, scope, created, errors, editing } = props;
  const old = props.old ?? (editing ? { name: editing.name, redirect: editing.redirect } : undefined);
  const path = editing ? `/dashboard/clients/${encodeURIComponent(editing.id)}` : '/dashboard/clients';
  const action = `${path}${scope.query}`;
  return (
    <DashboardFrame current="clients" title="OAuth clients" script={script} scope={scope}>
      <section class="card" data-clients data-read-only={scope.canManage ? undefined : ''}>
        <p class="muted">
          Applications that sign users in with this service use the authorization code flow (with PKCE):{' '}
          <code>{baseUrl}/oauth/authorize</code>, then <code>{baseUrl}/oauth/token</code>. Discovery:{' '}
          <a href="/.well-known/oauth-authorization-server">/.well-known/oauth-authorization-server</a>.
        </p>
        <div data-secret-slot>{created ? <CreatedClientBox created={created} /> : null}</div>
        <div class={clients.length ? 'table-wrap' : 'table-wrap hidden'}>
          <table class="table stack-sm">
            <thead>
              <tr>
                <th>Name</th>
                <th>Client ID</th>
                <th>Redirect URL</th>
                <th>Created</th>
                <th>Last used</th>
                <th>
                  <span class="hidden">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody data-list>
              <ClientRows clients={clients} csrfToken={csrfToken} scope={scope} />
            </tbody>
          </table>
        </div>
        <p class={clients.length ? 'muted hidden' : 'muted'} data-empty>
          {scope.organizationId === undefined
            ? 'You have not created any OAuth clients.'
            : 'This organization has no OAuth clients.'}
        </p>
        {scope.canManage ? null : (
          <p class="muted">
            Your role in this organization lets you see its clients; owners and admins manage them.
          </p>
        )}
        <h2 class={scope.canManage ? 'mt-lg' : 'mt-lg hidden'} id="client-form" data-form-title>
          {editing ? `Edit “${editing.name}”` : 'Create a client'}
        </h2>
        <form
          method="post"
          action={action}
          class={scope.canManage ? undefined : 'hidden'}
          data-client-form
          data-editing={editing?.id}
          novalidate
        >
          <CsrfField token={csrfToken} />
          {editing ? <input type="hidden" name="_method" value="PUT" /> : null}
          <FieldError messages={errors?.clients} />
          <div class="field">
            <label for="field-name">Name</label>
            <input
              id="field-name"
              name="name"
              type="text"
              autocomplete="off"
              placeholder="My application"
              value={old?.name ?? ''}
            />
            <p class="hint">Shown to users on the approval page.</p>
            <FieldError messages={errors?.name} />
          </div>
          <div class="field">
            <label for="field-redirect">Redirect URL</label>
            <input
              id="field-redirect"
              name="redirect"
              type="url"
              autocomplete="off"
              placeholder="https://example.com/callback"
              value={old?.redirect ?? ''}
            />
            <p class="hint">
              Where users are sent after approving or denying. Must match exactly; a public (native) client
              may use a private-use scheme (com.example.app:/cb) or http://127.0.0.1/… on any port.
            </p>
            <FieldError messages={errors?.redirect} />
          </div>
          {editing ? null : (
            <div class="field checkbox">
              <label>
                <input type="checkbox" name="confidential" checked={old?.confidential ?? true} /> Confidential
                (the client keeps a secret on a server)
              </label>
            </div>
          )}
          <div data-form-error />
          <div class="actions">
            <button type="submit" class="btn btn-primary">
              {editing ? 'Save' : 'Create client'}
            </button>
            {editing ? (
              <a class="btn" href={`/dashboard/clients${scope.query}`}>
                Cancel
              </a>
            ) : (
              <button type="button" class="btn hidden" data-cancel-edit>
                Cancel
              </button>
            )}
          </div>
        </form>
      </section>
    </DashboardFrame>
  );
};
