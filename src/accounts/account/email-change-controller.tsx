import type { Context } from 'hono';
import type { FC } from 'hono/jsx';
import { csrfToken, currentUser } from '../../auth/context.js';
import { formFields } from '../../auth/validation.js';
import { formBody } from '../../http/form-body.js';
import { wantsJson } from '../../http/respond.js';
import { renderPage } from '../../views/render.js';
import { ConfirmLinkPage } from '../confirm-link-page.js';
import { requestOrigin } from '../request-origin.js';
import { type ChangeFailure, EmailChange } from './email-change.js';

export const EMAIL_CHANGED = 'Your e-mail address has been changed.';

const FAILURES: Record<ChangeFailure, [number, string]> = {
  invalid: [403, 'This link is not valid (the address changed since it was sent). Ask for a new one.'],
  expired: [410, 'This link has expired. Ask for a new one on your account page.'],
  used: [410, 'This link was already used, or another change of address was confirmed first.'],
  'other-user': [403, 'This link is for another account. Sign out first to use it.'],
  taken: [409, 'Another account has this e-mail address now. Choose another one.'],
};

/** `GET /account/email/confirm?token=…` (a confirm button) and `POST /account/email/confirm` (the change). */
export class EmailChangeController {
  static inject = [EmailChange] as const;

  constructor(private readonly emails: EmailChange) {}

  async show(c: Context): Promise<Response> {
    const token = c.req.query('token') ?? '';
    const refused = await this.emails.check(token, currentUser(c));
    if (refused) return this.failed(c, refused);
    if (wantsJson(c))
      return c.json({ message: 'POST the token to /account/email/confirm to change the address.' });
    return renderPage(
      c,
      { title: 'Confirm your new e-mail address' },
      <ConfirmLinkPage
        title="Confirm your new e-mail address"
        text="Your account's address changes to this one when you confirm."
        action="/account/email/confirm"
        token={token}
        button="Confirm new e-mail address"
        csrfToken={csrfToken(c)}
      />,
    );
  }

  async confirm(c: Context): Promise<Response> {
    const { token } = formFields(await formBody(c), ['token']);
    const signedIn = currentUser(c);
    const outcome = await this.emails.confirm(token, signedIn, requestOrigin(c));
    if (!outcome.ok) return this.failed(c, outcome.reason);
    if (signedIn) c.set('user', outcome.user);
    if (wantsJson(c)) return c.json({ message: EMAIL_CHANGED });
    c.get('session')?.flash('status', EMAIL_CHANGED);
    return c.redirect(signedIn ? '/account' : '/login', 303);
  }

  private failed(c: Context, reason: ChangeFailure): Response | Promise<Response> {
    const [status, message] = FAILURES[reason];
    if (wantsJson(c)) return c.json({ message }, status as 403);
    return renderPage(c, { title: 'E-mail change link', status }, <Failed message={message} />);
  }
}

const Failed: FC<{ message: string }> = ({ message }) => (
  <div class="card narrow">
    <h1>E-mail change link</h1>
    <p role="alert">{message}</p>
    <p>
      <a href="/account">Your account</a>
    </p>
  </div>
);
