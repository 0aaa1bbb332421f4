import type { FC } from 'hono/jsx';
import { CsrfField } from 'tollgate/views';
import { displayDate } from './frame.js';

/** A credential's scopes as badges, or "no scopes". */
export const ScopeBadges: FC<{ scopes: string[] }> = ({ scopes }) => (
  <td>
    {scopes.length ? (
      scopes.map((s) => <span class="badge mr-xs">{s}</span>)
    ) : (
      <span class="muted">no scopes</span>
    )}
  </td>
);

/** When a credential was last used (to the minute), or "Never used". */
export const LastUsedCell: FC<{ at: string | null | undefined; class?: string }> = (props) => (
  <td class={props.class ?? 'small muted'} data-last-used>
    {props.at ? `Last used ${displayDate(props.at)}` : 'Never used'}
  </td>
);

/**
 * A form that deletes (`_method=DELETE`) what `action` names: a real post, so it works without the
 * script; with it, `data-confirm` asks first. `marker` is the button's data attribute for tests.
 */
export const DeleteForm: FC<{
  action: string;
  csrfToken: string;
  label: string;
  confirm?: string;
  marker?: Record<string, string>;
  class?: string;
}> = (props) => (
  <form method="post" action={props.action} class={props.class} data-confirm={props.confirm}>
    <CsrfField token={props.csrfToken} />
    <input type="hidden" name="_method" value="DELETE" />
    <button type="submit" class="btn btn-danger" {...props.marker}>
      {props.label}
    </button>
  </form>
);
