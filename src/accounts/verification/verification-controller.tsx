import type { Context } from 'hono';
import type { FC } from 'hono/jsx';
import { csrfToken, currentUser, login } from '../../auth/context.js';
import { formFields } from '../../auth/validation.js';
import type { Clock } from '../../core/clock.js';
import { ClockKey } from '../../core/keys.js';
import { formBody } from '../../http/form-body.js';
import { wantsJson } from '../../http/respond.js';
import { CsrfField } from '../../views/components.js';
import { renderPage } from '../../views/render.js';
import type { RedeemFailure } from '../account-tokens.js';
import { ConfirmLinkPage } from '../confirm-link-page.js';
import { TwoFactor } from '../two-factor/two-factor.js';
import { EmailVerification, verifiedAt } from './email-verification.js';

const FAILURES: Record<RedeemFailure, [number, string]> = {
  invalid: [403, 'This verification link is not valid. Ask for a new one.'],
  expired: [410, 'This verification link has expired. Ask for a new one.'],
  used: [410, 'This verification link was already used.'],
  'other-user': [403, 'This verification link is for another account. Sign out first to use it.'],
};

export const VERIFIED = 'Your e-mail address is verified.';
export const VERIFIED_LOG_IN = 'Your e-mail address is verified. Log in to continue.';
export const LINK_SENT = 'A new verification link is on its way.';
const CONFIRM = 'POST the token to /email/verification to verify the address.';

/**
 * `GET /email/verify` (the "check your mail" page), `POST /email/verification-notification`
 * (resend, throttled per user), `GET /email/verification?token=…` (the link: a confirm button) and
 * `POST /email/verification` (verifies the address and signs its owner in when nobody is).
 */
export class VerificationController {
  static inject = [EmailVerification, ClockKey, TwoFactor] as const;

  constructor(
    private readonly verification: EmailVerification,
    private readonly clock: Clock,
    private readonly twoFactor: TwoFactor,
  ) {}

  notice(c: Context): Response | Promise<Response> {
    const user = currentUser(c)!;
    if (verifiedAt(user)) return c.redirect('/dashboard', 302);
    return renderPage(
      c,
      { title: 'Verify your e-mail address' },
      <Notice email={user.email} csrfToken={csrfToken(c)} />,
    );
  }

  async resend(c: Context): Promise<Response> {
    const user = currentUser(c)!;
    if (!verifiedAt(user)) await this.verification.send(user);
    const message = verifiedAt(user) ? VERIFIED : LINK_SENT;
    if (wantsJson(c)) return c.json({ message }, 202);
    c.get('session')?.flash('status', message);
    return c.redirect('/email/verify', 303);
  }

  /** The link from the mail: a page whose button confirms (a GET uses nothing up). */
  async show(c: Context): Promise<Response> {
    const token = c.req.query('token') ?? '';
    const refused = await this.verification.check(token, currentUser(c));
    if (refused) return this.failed(c, refused);
    if (wantsJson(c)) return c.json({ message: CONFIRM });
    return renderPage(
      c,
      { title: 'Verify your e-mail address' },
      <ConfirmLinkPage
        title="Verify your e-mail address"
        text="Confirm that this address is yours."
        action="/email/verification"
        token={token}
        button="Verify e-mail address"
        csrfToken={csrfToken(c)}
      />,
    );
  }

  async verify(c: Context): Promise<Response> {
    const signedIn = currentUser(c);
    const { token } = formFields(await formBody(c), ['token']);
    const outcome = await this.verification.verify(token, signedIn);
    if (!outcome.ok) return this.failed(c, outcome.reason);
    // A link from the mailbox is not a second factor: a user with one logs in with both.
    if (!signedIn && (await this.twoFactor.enabled(outcome.user.id))) {
      if (wantsJson(c)) return c.json({ message: VERIFIED_LOG_IN });
      c.get('session')?.flash('status', VERIFIED_LOG_IN);
      return c.redirect('/login', 303);
    }
    if (!signedIn) login(c, outcome.user, this.clock.now());
    else c.set('user', outcome.user);
    if (wantsJson(c)) return c.json({ message: VERIFIED });
    c.get('session')?.flash('status', VERIFIED);
    return c.redirect('/dashboard', 303);
  }

  private failed(c: Context, reason: RedeemFailure): Response | Promise<Response> {
    const [status, message] = FAILURES[reason];
    if (wantsJson(c)) return c.json({ message }, status as 403);
    return renderPage(
      c,
      { title: 'Verification link', status },
      <Failed message={message} signedIn={!!currentUser(c)} />,
    );
  }
}

const Notice: FC<{ email: string; csrfToken: string }> = ({ email, csrfToken }) => (
  <div class="card narrow">
    <h1>Verify your e-mail address</h1>
    <p>
      We sent a link to <strong>{email}</strong>. Open it to confirm the address is yours.
    </p>
    <form method="post" action="/email/verification-notification">
      <CsrfField token={csrfToken} />
      <button type="submit" class="btn">
        Send the link again
      </button>
    </form>
  </div>
);

const Failed: FC<{ message: string; signedIn: boolean }> = ({ message, signedIn }) => (
  <div class="card narrow">
    <h1>Verification link</h1>
    <p role="alert">{message}</p>
    <p>{signedIn ? <a href="/email/verify">Ask for a new link</a> : <a href="/login">Log in</a>}</p>
  </div>
);
