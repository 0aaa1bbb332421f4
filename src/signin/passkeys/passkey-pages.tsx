import type { FC } from 'hono/jsx';
import { RememberDeviceField, type SecondFactor } from '../../auth/index.js';
import { CsrfField, Field } from '../../views/components.js';
import type { Passkey } from './passkeys.js';

/** The scripts every passkey page loads: @simplewebauthn/browser's bundle, then ours. */
export const PASSKEY_SCRIPTS = ['/signin/passkeys/webauthn.js?v=14.0.0', '/signin/passkeys/passkeys.js?v=2'];

const Scripts: FC = () => (
  <>
    {PASSKEY_SCRIPTS.map((src) => (
      <script type="module" src={src} />
    ))}
  </>
);

/** Where the passkey script reports a refusal. */
// Styled as a flash only once the script fills it: a hidden `.flash` would be one more on every page.
const PasskeyAlert: FC = () => <p id="passkey-error" role="alert" hidden />;

/** Below the login form: "Sign in with a passkey" (shown by the script: a passkey needs JavaScript). */
export const PasskeyLoginSection: FC<{ csrfToken: string }> = () => (
  <div class="stack" id="passkey-login">
    <button type="button" class="btn" data-passkey-sign-in hidden>
      Sign in with a passkey
    </button>
    <PasskeyAlert />
  </div>
);

/** `GET /login/passkey`: the second step after the password, for a user with a passkey. */
export const PasskeyStepPage: FC<{
  csrfToken: string;
  others: SecondFactor[];
  rememberDays?: number | undefined;
}> = ({ csrfToken, others, rememberDays }) => (
  <div class="card narrow">
    <h1>Use your passkey</h1>
    <p>Confirm it is you with one of your passkeys.</p>
    <CsrfField token={csrfToken} />
    <RememberDeviceField days={rememberDays} />
    <noscript>
      <p>A passkey needs JavaScript in this browser.</p>
    </noscript>
    <div class="actions">
      <button type="button" class="btn btn-primary" data-passkey-sign-in hidden>
        Use your passkey
      </button>
      {others.map((other) => (
        <a href={other.path}>{other.label ?? 'Use another way'}</a>
      ))}
    </div>
    <PasskeyAlert />
    <Scripts />
  </div>
);

/** The account page's "Passkeys" card: each passkey named, with its last use, removable. */
export const PasskeysSection: FC<{ passkeys: Passkey[]; csrfToken: string }> = ({ passkeys, csrfToken }) => (
  <section class="card" id="passkeys">
    <h2>Passkeys</h2>
    <p>Sign in with your fingerprint, face or screen lock instead of a password, or after it.</p>
    {passkeys.length > 0 ? (
      <table class="table">
        <thead>
          <tr>
            <th>Name</th>
            <th>Added</th>
            <th>Last used</th>
            <th>Actions</th>
          </tr>
        </thead>
        <tbody>
          {passkeys.map((passkey) => (
            <tr>
              <td>
                {passkey.name}
                {passkey.backedUp ? <span class="muted"> (synced)</span> : null}
              </td>
              <td>{day(passkey.createdAt)}</td>
              <td>{passkey.lastUsedAt ? day(passkey.lastUsedAt) : 'Never'}</td>
              <td>
                <details class="rename">
                  <summary>Rename</summary>
                  <form method="post" action={`/account/passkeys/${passkey.id}/rename`} class="inline-rename">
                    <CsrfField token={csrfToken} />
                    <input
                      name="name"
                      value={passkey.name}
                      maxlength={100}
                      required
                      aria-label={`Name of ${passkey.name}`}
                    />
                    <button type="submit" class="btn" aria-label={`Save the new name of ${passkey.name}`}>
                      Save
                    </button>
                  </form>
                </details>
                <form method="post" action={`/account/passkeys/${passkey.id}/delete`}>
                  <CsrfField token={csrfToken} />
                  <button type="submit" class="btn" aria-label={`Remove ${passkey.name}`}>
                    Remove
                  </button>
                </form>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    ) : (
      <p class="muted">No passkeys yet.</p>
    )}
    <a class="btn btn-primary" href="/account/passkeys/new">
      Add a passkey
    </a>
  </section>
);

/** `GET /account/passkeys/new`: name the passkey, then the browser makes it. */
export const NewPasskeyPage: FC<{ csrfToken: string; error?: string }> = ({ csrfToken, error }) => (
  <div class="card narrow">
    <h1>Add a passkey</h1>
    <form method="post" action="/account/passkeys" id="passkey-add-form">
      <CsrfField token={csrfToken} />
      <Field
        name="name"
        label="Name"
        hint="So you can tell your passkeys apart: “Work laptop”, “Phone”."
        autocomplete="off"
        required
        autofocus
        errors={error ? [error] : undefined}
      />
      <noscript>
        <p>Adding a passkey needs JavaScript in this browser.</p>
      </noscript>
      <div class="actions">
        <button type="submit" class="btn btn-primary">
          Add the passkey
        </button>
        <a href="/account#passkeys">Cancel</a>
      </div>
    </form>
    <PasskeyAlert />
    <Scripts />
  </div>
);

function day(iso: string): string {
  return iso.slice(0, 10);
}
