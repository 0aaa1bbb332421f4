import type { FC } from 'hono/jsx';
import type { ClientRecord } from 'tollgate/oauth';
import { DeleteForm, LastUsedCell } from './credential-cells.js';
import { displayDate } from './frame.js';

/** The client just created, shown this once: its id and (confidential) plain secret. */
export const CreatedClientBox: FC<{ created: { name: string; id: string; secret: string | null } }> = ({
  created,
}) => (
  <div class="secret" role="status" data-secret>
    <strong>Client “{created.name}” created</strong>
    <p class="small muted">
      {created.secret
        ? 'Copy the secret now: it is stored hashed and will not be shown again.'
        : 'A public client has no secret: it must use PKCE.'}
    </p>
    <div class="value">
      <span class="small">Client ID</span>
      <code data-value="Client ID">{created.id}</code>
    </div>
    {created.secret ? (
      <div class="value">
        <span class="small">Secret</span>
        <code data-value="Secret">{created.secret}</code>
      </div>
    ) : null}
  </div>
);

/** The user's clients as table rows, each with an edit link and a delete form (`_method=DELETE`); the script replaces them. */
export const ClientRows: FC<{ clients: ClientRecord[]; csrfToken: string }> = ({ clients, csrfToken }) => (
  <>
    {clients.map((client) => (
      <tr data-client={client.id}>
        <td>
          <strong>{client.name}</strong>
          <div class="small muted">{client.secretHash ? 'Confidential' : 'Public (PKCE)'}</div>
        </td>
        <td>
          <span class="mono" data-client-id>
            {client.id}
          </span>
        </td>
        <td>
          <span class="mono">{client.redirect}</span>
        </td>
        <td class="small muted nowrap">{displayDate(client.createdAt)}</td>
        <LastUsedCell at={client.lastUsedAt} class="small muted nowrap" />
        <td>
          <div class="actions">
            <a
              class="btn"
              href={`/dashboard/clients/${encodeURIComponent(client.id)}/edit#client-form`}
              data-edit={client.id}
            >
              Edit
            </a>
            <DeleteForm
              action={`/dashboard/clients/${encodeURIComponent(client.id)}`}
              csrfToken={csrfToken}
              label="Delete"
              class="m-0"
              confirm={`Delete the client “${client.name}”? Its tokens stop working.`}
              marker={{ 'data-delete': client.id }}
            />
          </div>
        </td>
      </tr>
    ))}
  </>
);
