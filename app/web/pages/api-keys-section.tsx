import type { FC } from 'hono/jsx';
import type { ApiKeyRecord } from 'tollgate/oauth';
import { CsrfField } from 'tollgate/views';
import type { DashboardScope } from '../dashboard-scope.js';
import { DeleteForm, LastUsedCell, ScopeBadges } from './credential-cells.js';
import { displayDate } from './frame.js';
import { FieldError, NameAndScopes } from './scope-checks.js';

export interface ApiKeysSectionProps {
  csrfToken: string;
  keys: ApiKeyRecord[];
  scopes: Array<{ id: string; description: string }>;
  /** The key just created: shown this once. */
  created?: { name: string; key: string };
  /** A refused create: the field messages and what was typed. */
  errors?: Record<string, string[]>;
  old?: { name?: string; scopes?: string[]; expires_in_days?: string; rate_limit_per_minute?: string };
  /** Whose keys (set by the tokens page): the user's own, or an organization's. */
  scope?: DashboardScope;
}

/** A whole-number field from 1 up, with what was typed and its message after a refused post. */
const NumberField: FC<{
  id: string;
  name: 'expires_in_days' | 'rate_limit_per_minute';
  label: string;
  max?: string;
  old?: ApiKeysSectionProps['old'];
  errors?: ApiKeysSectionProps['errors'];
}> = ({ id, name, label, max, old, errors }) => (
  <div class="field">
    <label for={id}>{label}</label>
    <input id={id} name={name} type="number" min="1" max={max} value={old?.[name] ?? ''} />
    <FieldError messages={errors?.[name]} />
  </div>
);

/**
 * API keys on `/dashboard/tokens`, rendered on the server: the list, a real form post to create
 * one (the key shown once in the answer) and a form per key to revoke it. No JavaScript needed.
 */
export const ApiKeysSection: FC<ApiKeysSectionProps> = ({
  csrfToken,
  keys,
  scopes,
  created,
  errors,
  old,
  scope = { query: '', canManage: true, organizations: [] },
}) => (
  <section class="card" id="api-keys" data-api-keys>
    <h2>API keys</h2>
    <p class="muted">
      Keys for servers and scripts. Send one as <code>Authorization: Bearer &lt;key&gt;</code> or{' '}
      <code>X-API-Key: &lt;key&gt;</code>.
    </p>
    {created ? (
      <div class="secret" role="status" data-secret>
        <strong>API key “{created.name}” created</strong>
        <p class="small muted">Copy it now: it is not stored anywhere you can read it again.</p>
        <div class="value">
          <span class="small">Key</span>
          <code data-value="Key">{created.key}</code>
        </div>
      </div>
    ) : null}
    {scope.canManage ? null : (
      <p class="muted">
        Your role in this organization lets you see its keys; owners and admins manage them.
      </p>
    )}
    <form
      method="post"
      action={`/dashboard/api-keys${scope.query}`}
      class={scope.canManage ? undefined : 'hidden'}
      data-api-key-form
    >
      <CsrfField token={csrfToken} />
      <NameAndScopes id="field-key-name" placeholder="Billing sync" {...{ scopes, old, errors }} />
      <NumberField
        id="field-key-expires"
        name="expires_in_days"
        label="Expires after (days, empty: never)"
        max="3650"
        {...{ old, errors }}
      />
      <NumberField
        id="field-key-rate"
        name="rate_limit_per_minute"
        label="Requests per minute (empty: no limit of its own)"
        {...{ old, errors }}
      />
      <div class="actions mt-0">
        <button type="submit" class="btn btn-primary">
          Create API key
        </button>
      </div>
    </form>
    {keys.length ? (
      <div class="table-wrap mt-lg">
        <table class="table stack-sm">
          <tbody>
            {keys.map((key) => (
              <tr data-api-key={key.id}>
                <td>
                  <strong>{key.name}</strong>
                  <br />
                  <code class="small">
                    {key.prefix}…{key.lastFour}
                  </code>
                </td>
                <ScopeBadges scopes={key.scopes} />
                <td class="small muted">Created {displayDate(key.createdAt)}</td>
                <td class="small muted">
                  {key.expiresAt ? `Expires ${displayDate(key.expiresAt)}` : 'Never expires'}
                </td>
                <LastUsedCell at={key.lastUsedAt} />
                <td class={scope.canManage ? undefined : 'hidden'}>
                  <DeleteForm
                    action={`/dashboard/api-keys/${key.id}${scope.query}`}
                    csrfToken={csrfToken}
                    label="Revoke"
                    confirm={`Revoke the API key “${key.name}”? Programs using it lose access at once.`}
                  />
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    ) : (
      <p class="muted mt-lg" data-empty>
        {scope.organizationId === undefined ? 'You have no API keys.' : 'This organization has no API keys.'}
      </p>
    )}
  </section>
);
