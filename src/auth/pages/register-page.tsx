import type { FC } from 'hono/jsx';
import { CsrfField, Field } from '../../views/components.js';
import { withIntended } from '../../views/intended-link.js';

export interface RegisterPageProps {
  csrfToken: string;
  old?: { name?: string; email?: string };
  errors?: Record<string, string[]>;
  /** Where login leads after sign-up (an approval page the visitor came from). */
  intended?: string | undefined;
}

export const RegisterPage: FC<RegisterPageProps> = ({ csrfToken, old = {}, errors = {}, intended }) => (
  <div class="card narrow">
    <h1>Create an account</h1>
    <form method="post" action="/register" novalidate>
      <CsrfField token={csrfToken} />
      {intended ? <input type="hidden" name="intended" value={intended} /> : null}
      <Field
        name="name"
        label="Name"
        value={old.name}
        errors={errors.name}
        autocomplete="name"
        required
        autofocus
      />
      <Field
        name="email"
        label="Email"
        type="email"
        value={old.email}
        errors={errors.email}
        autocomplete="email"
        required
      />
      <Field
        name="password"
        label="Password"
        type="password"
        errors={errors.password}
        autocomplete="new-password"
        hint="At least 8 characters."
        required
      />
      <Field
        name="password_confirmation"
        label="Confirm password"
        type="password"
        errors={errors.password_confirmation}
        autocomplete="new-password"
        required
      />
      <div class="actions">
        <button type="submit" class="btn btn-primary">
          Register
        </button>
        <span class="muted">
          Already registered? <a href={withIntended('/login', intended)}>Log in</a>
        </span>
      </div>
    </form>
  </div>
);
