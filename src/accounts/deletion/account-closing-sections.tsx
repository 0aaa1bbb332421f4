import type { FC } from 'hono/jsx';
import { CsrfField, Field } from '../../views/components.js';

/** The account page's last two sections: download one's data, delete the account. */
export const AccountClosingSections: FC<{ csrfToken: string; errors?: Record<string, string[]> }> = (p) => (
  <>
    <section class="card" id="data">
      <h2>Download your data</h2>
      <p>
        Everything we keep about you, as one JSON file: your account, sessions and devices, tokens, API keys
        and applications (never their secrets), subscriptions, invoices and the notices we sent.
      </p>
      <a class="btn" href="/account/export" download>
        Download my data
      </a>
    </section>

    <section class="card" id="delete">
      <h2>Delete account</h2>
      <p>
        This cancels your subscriptions now, revokes every token, API key and application of yours, signs you
        out everywhere and deletes your account. Invoices already issued are kept, as the law requires. It
        cannot be undone.
      </p>
      {p.errors?.account?.map((message) => (
        <p class="error" role="alert">
          {message}
        </p>
      ))}
      <form method="post" action="/account/delete" novalidate>
        <CsrfField token={p.csrfToken} />
        <Field
          id="delete-current-password"
          name="current_password"
          label="Current password"
          type="password"
          autocomplete="current-password"
          errors={p.errors?.current_password}
          required
        />
        <button type="submit" class="btn btn-danger">
          Delete my account
        </button>
      </form>
    </section>
  </>
);
