import type { FC } from 'hono/jsx';
import { RememberDeviceField } from '../../auth/pages/remember-device-field.js';
import { CsrfField, Field } from '../../views/components.js';

/** Enrolment: the QR code (and the key to type), then a code from the app to confirm. */
export const SetupPage: FC<{ qrDataUrl: string; seed: string; csrfToken: string; errors?: string[] }> = (
  p,
) => (
  <div class="card narrow">
    <h1>Set up your authenticator app</h1>
    <p>Scan this code with your authenticator app, then type the six-digit code it shows.</p>
    <img src={p.qrDataUrl} alt="QR code for your authenticator app" width="200" height="200" />
    <p class="hint">
      Cannot scan it? Type this key instead: <code id="totp-key">{p.seed.match(/.{1,4}/g)?.join(' ')}</code>
    </p>
    <form method="post" action="/account/two-factor/confirm" novalidate>
      <CsrfField token={p.csrfToken} />
      <Field
        name="code"
        label="Code from the app"
        autocomplete="one-time-code"
        errors={p.errors}
        required
        autofocus
      />
      <button type="submit" class="btn btn-primary">
        Turn on
      </button>
    </form>
  </div>
);

/** The recovery codes, shown this once. */
export const RecoveryCodesPage: FC<{ codes: string[]; enabledNow: boolean }> = ({ codes, enabledNow }) => (
  <div class="card narrow">
    <h1>{enabledNow ? 'Two-factor authentication is on' : 'Your new recovery codes'}</h1>
    <p>
      Keep these recovery codes somewhere safe. Each signs you in once when you do not have your authenticator
      app. They are shown only now{enabledNow ? '' : '; the old ones no longer work'}.
    </p>
    <ul class="recovery-codes">
      {codes.map((code) => (
        <li>
          <code>{code}</code>
        </li>
      ))}
    </ul>
    <p>
      <a href="/account" class="btn btn-primary">
        I have saved them
      </a>
    </p>
  </div>
);

/** The login's second step; `rememberDays` offers "Remember this device". */
export const ChallengePage: FC<{
  csrfToken: string;
  errors?: string[];
  rememberDays?: number | undefined;
}> = ({ csrfToken, errors, rememberDays }) => (
  <div class="card narrow">
    <h1>Two-factor authentication</h1>
    <form method="post" action="/login/two-factor" novalidate>
      <CsrfField token={csrfToken} />
      <Field
        name="code"
        label="Code from your authenticator app"
        autocomplete="one-time-code"
        errors={errors}
        hint="No app at hand? Type one of your recovery codes."
        required
        autofocus
      />
      <RememberDeviceField days={rememberDays} />
      <button type="submit" class="btn btn-primary">
        Continue
      </button>
    </form>
  </div>
);
