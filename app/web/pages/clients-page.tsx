import type { FC } from 'hono/jsx';
import { DashboardFrame } from './frame.js';

/** `/dashboard/clients`: the OAuth clients the user registered (script: app/assets/clients.ts). */
export const ClientsPage: FC<{ script: string; baseUrl: string }> = ({ script, baseUrl }) => (
  <DashboardFrame current="clients" title="OAuth clients" script={script}>
    <section class="card" data-clients>
      <p class="muted">
        Applications that sign users in with this service use the authorization code flow (with PKCE):{' '}
        <code>{baseUrl}/oauth/authorize</code>, then <code>{baseUrl}/oauth/token</code>. Discovery:{' '}
        <a href="/.well-known/oauth-authorization-server">/.well-known/oauth-authorization-server</a>.
      </p>
      <div data-secret-slot />
      <div class="table-wrap hidden">
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
          <tbody data-list />
        </table>
      </div>
      <p class="muted hidden" data-empty>
        You have not created any OAuth clients.
      </p>
      <h2 class="mt-lg" data-form-title>
        Create a client
      </h2>
      <form data-client-form novalidate>
        <div class="field">
          <label for="field-name">Name</label>
          <input id="field-name" name="name" type="text" autocomplete="off" placeholder="My application" />
          <p class="hint">Shown to users on the approval page.</p>
        </div>
        <div class="field">
          <label for="field-redirect">Redirect URL</label>
          <input
            id="field-redirect"
            name="redirect"
            type="url"
            autocomplete="off"
            placeholder="https://example.com/callback"
          />
          <p class="hint">
            Where users are sent after approving or denying. Must match exactly; a public (native) client may
            use a private-use scheme (com.example.app:/cb) or http://127.0.0.1/… on any port.
          </p>
        </div>
        <div class="field checkbox">
          <label>
            <input type="checkbox" name="confidential" checked /> Confidential (the client keeps a secret on a
            server)
          </label>
        </div>
        <div data-form-error />
        <div class="actions">
          <button type="submit" class="btn btn-primary">
            Create client
          </button>
          <button type="button" class="btn hidden" data-cancel-edit>
            Cancel
          </button>
        </div>
      </form>
    </section>
  </DashboardFrame>
);
