import type { Child, FC } from 'hono/jsx';
import type { SessionRow } from '../../auth/tables.js';
import { CsrfField, Field } from '../../views/components.js';
import { AccountClosingSections } from '../deletion/account-closing-sections.js';
import type { TwoFactorState } from '../two-factor/two-factor.js';
import { TwoFactorSection } from '../two-factor/two-factor-section.js';
import { deviceName } from './device-name.js';

export type FormErrors = Record<string, string[]>;

export interface AccountPageProps {
  name: string;
  email: string;
  verified: boolean;
  sessions: SessionRow[];
  /** The stored id (hash) of the session showing the page. */
  currentSession: string | undefined;
  csrfToken: string;
  twoFactor: TwoFactorState;
  errors?: { password?: FormErrors; email?: FormErrors; delete?: FormErrors; sessions?: FormErrors };
  newEmail?: string;
  /** The security log's page, when the audit log is on. */
  securityLogPath?: string;
  /** The cards other modules add (`AccountSections`). */
  sections?: Child[];
}

/** `GET /account`: the profile, password, e-mail address and sessions. */
export const AccountPage: FC<AccountPageProps> = (p) => (
  <div class="stack">
    <section class="card">
      <h1>Your account</h1>
      <p>
        {p.name} · <strong>{p.email}</strong> {p.verified ? '(verified)' : '(not verified)'}
      </p>
      {p.securityLogPath ? (
        <p>
          <a href={p.securityLogPath}>Security log</a>: your sign-ins and account changes.
        </p>
      ) : null}
    </section>

    <section class="card" id="password">
      <h2>Change password</h2>
      <form method="post" action="/account/password" novalidate>
        <CsrfField token={p.csrfToken} />
        <Field
          id="password-current-password"
          name="current_password"
          label="Current password"
          type="password"
          autocomplete="current-password"
          errors={p.errors?.password?.current_password}
          required
        />
        <Field
          name="password"
          label="New password"
          type="password"
          autocomplete="new-password"
          errors={p.errors?.password?.password}
          required
        />
        <Field name="password_confirmation" label="Confirm new password" type="password" required />
        <button type="submit" class="btn btn-primary">
          Change password
        </button>
      </form>
    </section>

    <section class="card" id="email">
      <h2>Change e-mail address</h2>
      <p>We mail a link to the new address; the change takes effect when you open it.</p>
      <form method="post" action="/account/email" novalidate>
        <CsrfField token={p.csrfToken} />
        <Field
          name="email"
          label="New e-mail address"
          type="email"
          value={p.newEmail}
          autocomplete="email"
          errors={p.errors?.email?.email}
          required
        />
        <Field
          id="email-current-password"
          name="current_password"
          label="Current password"
          type="password"
          autocomplete="current-password"
          errors={p.errors?.email?.current_password}
          required
        />
        <button type="submit" class="btn btn-primary">
          Send the confirmation link
        </button>
      </form>
    </section>

    <TwoFactorSection state={p.twoFactor} csrfToken={p.csrfToken} />
    {p.sections ?? null}

    <section class="card" id="sessions">
      <h2>Sessions</h2>
      <table class="table">
        <thead>
          <tr>
            <th>Device</th>
            <th>Address</th>
            <th>Last seen</th>
          </tr>
        </thead>
        <tbody>
          {p.sessions.map((s) => (
            <tr>
              <td>
                {deviceName(s.user_agent)}
                {s.id === p.currentSession ? <strong> (this session)</strong> : null}
              </td>
              <td>{s.ip_address ?? 'unknown'}</td>
              <td>
                <time datetime={s.last_activity}>{s.last_activity.slice(0, 16).replace('T', ' ')} UTC</time>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      <form method="post" action="/account/sessions/others">
        <CsrfField token={p.csrfToken} />
        <button type="submit" class="btn">
          Sign out other sessions
        </button>
      </form>
    </section>

    <AccountClosingSections csrfToken={p.csrfToken} errors={p.errors?.delete} />
  </div>
);
