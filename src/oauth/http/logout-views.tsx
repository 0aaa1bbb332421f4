import type { Context } from 'hono';
import { CsrfField } from '../../views/components.js';
import { renderPage } from '../../views/render.js';

/** The parameters the confirmation form carries back (checked again when it is posted). */
export type LogoutFields = Record<string, string>;

/** RP-Initiated Logout §2: the user confirms a logout that no valid ID token hint vouches for. */
export function confirmLogoutPage(c: Context, csrfToken: string, fields: LogoutFields): Promise<Response> {
  return renderPage(
    c,
    { title: 'Log out' },
    <div class="card narrow">
      <h1>Log out?</h1>
      <p>An application asked to log you out of this service.</p>
      <form method="post" action="/oauth/logout">
        <CsrfField token={csrfToken} />
        {Object.entries(fields).map(([name, value]) => (
          <input type="hidden" name={name} value={value} />
        ))}
        <button type="submit" class="btn btn-primary" name="logout" value="yes">
          Log out
        </button>
      </form>
    </div>,
  );
}

/** The end of a logout that has nowhere to send the user back to. */
export function loggedOutPage(c: Context): Promise<Response> {
  return renderPage(
    c,
    { title: 'Logged out' },
    <div class="card narrow">
      <h1>You are logged out</h1>
      <p>You can close this window.</p>
    </div>,
  );
}
