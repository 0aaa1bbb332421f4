import type { FC } from 'hono/jsx';
import { CsrfField, Field } from '../../views/components.js';
import type { LinkedIdentity } from './linked-identities.js';

/** An upstream sign-in that did not work: what happened, and the way back. */
export const UpstreamProblemPage: FC<{ message: string; back: string }> = ({ message, back }) => (
  <div class="card narrow">
    <h1>Sign-in did not work</h1>
    <p class="error" role="alert">
      {message}
    </p>
    <p>
      <a href={back}>Back</a>
    </p>
  </div>
);

/** The provider's e-mail address has an account: its owner links the two by giving the password. */
export const ConfirmLinkPage: FC<{
  label: string;
  email: string;
  action: string;
  csrfToken: string;
  errors?: string[] | undefined;
}> = ({ label, email, action, csrfToken, errors }) => (
  <div class="card narrow">
    <h1>Link {label} to your account</h1>
    <p>
      There is already an account for <strong>{email}</strong>. Enter its password to sign in with {label}{' '}
      from now on.
    </p>
    <form method="post" action={action} novalidate>
      <CsrfField token={csrfToken} />
      <Field
        name="password"
        label="Password"
        type="password"
        autocomplete="current-password"
        errors={errors}
        required
        autofocus
      />
      <div class="actions">
        <button type="submit" class="btn btn-primary">
          Link and sign in
        </button>
        <a href="/login">Cancel</a>
      </div>
    </form>
  </div>
);

/** The account page's card: the providers, linked or not, with Link and Unlink. */
export const LinkedAccountsSection: FC<{
  providers: Array<{ id: string; label: string }>;
  linked: LinkedIdentity[];
  csrfToken: string;
}> = ({ providers, linked, csrfToken }) => (
  <section class="card" id="linked-accounts">
    <h2>Linked accounts</h2>
    <p>Sign in with another account instead of your password.</p>
    <ul class="plain">
      {providers.map((provider) => {
        const link = linked.find((l) => l.provider === provider.id);
        return (
          <li>
            <strong>{provider.label}</strong>{' '}
            {link ? (
              <>
                <span class="muted">linked{link.email ? ` (${link.email})` : ''}</span>
                <form method="post" action={`/account/sign-in/${provider.id}/unlink`} class="inline">
                  <CsrfField token={csrfToken} />
                  <button type="submit" class="btn">
                    Unlink {provider.label}
                  </button>
                </form>
              </>
            ) : (
              <form method="post" action={`/account/sign-in/${provider.id}/link`} class="inline">
                <CsrfField token={csrfToken} />
                <button type="submit" class="btn">
                  Link {provider.label}
                </button>
              </form>
            )}
          </li>
        );
      })}
    </ul>
  </section>
);
