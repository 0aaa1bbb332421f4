import type { FC } from 'hono/jsx';
import { CsrfField, Field } from '../../views/components.js';
import { withIntended } from '../../views/intended-link.js';
import type { LoginPageAddition, SignInAlternative } from '../second-factor.js';

export interface LoginPageProps {
  csrfToken: string;
  email?: string;
  intended?: string | undefined;
  errors?: Record<string, string[]>;
  registration?: boolean;
  /** Where "Forgot your password?" leads; no link without one. */
  passwordResetPath?: string | undefined;
  /** Other ways to sign in ("Sign in with GitHub"). */
  alternatives?: readonly SignInAlternative[];
  /** What sign-in modules add (passkeys, other providers). */
  additions?: readonly LoginPageAddition[];
}

export const LoginPage: FC<LoginPageProps> = ({
  csrfToken,
  email,
  intended,
  errors = {},
  registration,
  passwordResetPath,
  alternatives = [],
  additions = [],
}) => (
  <div class="card narrow">
    <h1>Log in</h1>
    <form method="post" action="/login" novalidate>
      <CsrfField token={csrfToken} />
      {intended ? <input type="hidden" name="intended" value={intended} /> : null}
      <Field
        name="email"
        label="Email"
        type="email"
        value={email}
        errors={errors.email}
        autocomplete={[
          'username',
          ...additions.flatMap((a) => (a.autocomplete ? [a.autocomplete] : [])),
        ].join(' ')}
        required
        autofocus
      />
      <Field
        name="password"
        label="Password"
        type="password"
        errors={errors.password}
        autocomplete="current-password"
        required
      />
      <div class="actions">
        <button type="submit" class="btn btn-primary">
          Log in
        </button>
        {registration ? (
          <span class="muted">
            No account yet? <a href={withIntended('/register', intended)}>Register</a>
          </span>
        ) : null}
        {passwordResetPath ? (
          <span class="muted">
            <a href={passwordResetPath}>Forgot your password?</a>
          </span>
        ) : null}
      </div>
    </form>
    {alternatives.length > 0 ? (
      <nav class="actions" aria-label="Other ways to sign in">
        {alternatives.map((alternative) => (
          <a class="btn" href={withIntended(alternative.href, intended)}>
            {alternative.label}
          </a>
        ))}
      </nav>
    ) : null}
    {additions.map(({ section: Section }) =>
      Section ? <Section csrfToken={csrfToken} intended={intended} /> : null,
    )}
    {additions
      .flatMap((a) => a.scripts ?? [])
      .map((src) => (
        <script type="module" src={src} />
      ))}
  </div>
);
