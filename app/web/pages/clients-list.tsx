import type { FC } from 'hono/jsx';
import type { ClientRecord } from 'tollgate/oauth';
import { CsrfField } from 'tollgate/views';
import { GRACE_CHOICES } from '../../assets/grace-choices.js';
import type { DashboardScope } from '../dashboard-scope.js';
import { DeleteForm, LastUsedCell } from './credential-cells.js';
import { displayDate } from './frame.js';

/** A client just created or given a new secret; `rotated`: when the replaced secret stops (null: already). */
export interface ShownClient {
  name: string;
  id: string;
  secret: string | null;
  rotated?: { previousUntil: string | null };
}

/** The client just created (or its secret just rotated), shown this once: its id and plain secret. */
export const CreatedClientBox: FC<{ created: ShownClient }> = ({ created }) => (
  <div class="secret" role="status" data-secret>
    <strong>
      {created.rotated ? `New secret for “${created.name}”` : `Client “${created.name}” created`}
    </strong>
    <p class="small muted">{shownNote(created)}</p>
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

function shownNote(created: ShownClient): string {
  if (!created.secret) return 'A public client has no secret: it must use PKCE.';
  const copy = 'Copy the secret now: it is stored hashed and will not be shown again.';
  if (!created.rotated) return copy;
  const until = created.rotated.previousUntil;
  return `${copy} ${until ? `The old secret keeps working until ${new Date(until).toUTCString()}.` : 'The old secret no longer works.'}`;
}

/** Rotates a confidential client's secret (a real post): how long the old one keeps working, then the button. */
export const RotateSecretForm: FC<{ client: ClientRecord; csrfToken: string; query: string }> = ({
  client,
  csrfToken,
  query,
}) => (
  <form
    method="post"
    action={`/dashboard/clients/${encodeURIComponent(client.id)}/secret${query}`}
    class="inline m-0"
    data-rotate={client.id}
  >
    <CsrfField token={csrfToken} />
    <label class="small">
      Old secret{' '}
      <select name="grace_seconds">
        {GRACE_CHOICES.map(([seconds, label]) => (
          <option value={String(seconds)}>{label}</option>
        ))}
      </select>
    </label>{' '}
    <button type="submit" class="btn">
      Rotate secret
    </button>
  </form>
);

/**
 * The clients as table rows, each with an edit link and a delete form (`_method=DELETE`) for
 * someone who may manage them; the script replaces them.
 */
export const ClientRows: FC<{ clients: ClientRecord[]; csrfToken: string; scope: DashboardScope }> = ({
  clients,
  csrfToken,
  scope,
}) => (
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
          <div class={scope.canManage ? 'actions' : 'actions hidden'}>
            <a
              class="btn"
              href={`/dashboard/clients/${encodeURIComponent(client.id)}/edit${scope.query}#client-form`}
              data-edit={client.id}
            >
              Edit
            </a>
            {client.secretHash ? (
              <RotateSecretForm client={client} csrfToken={csrfToken} query={scope.query} />
            ) : null}
            <DeleteForm
              action={`/dashboard/clients/${encodeURIComponent(client.id)}${scope.query}`}
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
