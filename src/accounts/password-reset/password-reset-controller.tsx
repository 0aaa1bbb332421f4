import { createHash } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Context } from 'hono';
import type { FC } from 'hono/jsx';
import { z } from 'zod';
import { csrfToken } from '../../auth/context.js';
import { fieldErrors, formFields, registerSchema } from '../../auth/validation.js';
import type { TollgateConfig } from '../../core/config.js';
import { ConfigKey } from '../../core/keys.js';
import { formBody } from '../../http/form-body.js';
import { wantsJson } from '../../http/respond.js';
import { clientAddress, withRateLimitHeaders } from '../../rate-limits/http.js';
import { RateLimits } from '../../rate-limits/rate-limits.js';
import { CsrfField, Field } from '../../views/components.js';
import { renderPage } from '../../views/render.js';
import type { RedeemFailure } from '../account-tokens.js';
import { requestOrigin } from '../request-origin.js';
import { PasswordReset } from './password-reset.js';

/** The one answer to every well-formed reset request, known address or not. */
export const RESET_REQUESTED = 'If this address has an account, a link to reset its password is on its way.';
export const PASSWORD_RESET = 'Your password has been reset. Log in with it.';

const FAILURES: Record<RedeemFailure, [number, string]> = {
  invalid: [403, 'This reset link is not valid (a newer password or link replaced it). Ask for a new one.'],
  expired: [410, 'This reset link has expired. Ask for a new one.'],
  used: [410, 'This reset link was already used.'],
  'other-user': [403, 'This reset link is not valid. Ask for a new one.'],
};

const emailField = z.object({ email: registerSchema.shape.email });
const newPassword = z.object({ password: registerSchema.shape.password });

/**
 * `GET/POST /forgot-password` and `GET/POST /reset-password?token=…`. A request answers the same
 * page, status and time for every address: the mail is queued in the outbox before the answer, which
 * waits until `accounts.passwordReset.answerMs` after the request came in.
 */
export class PasswordResetController {
  static inject = [PasswordReset, RateLimits, ConfigKey] as const;

  constructor(
    private readonly resets: PasswordReset,
    private readonly limits: RateLimits,
    private readonly config: TollgateConfig,
  ) {}

  request(c: Context): Promise<Response> {
    return renderPage(c, { title: 'Forgot your password?' }, <RequestForm csrfToken={csrfToken(c)} />);
  }

  async send(c: Context): Promise<Response> {
    const answerAt = performance.now() + this.config.accounts.passwordReset.answerMs;
    const input = formFields(await formBody(c), ['email']);
    const perAddress = await this.limits.get('password-reset.address').consume(clientAddress());
    if (!perAddress.allowed) {
      const message = 'Too many reset requests from your network. Try again later.';
      const res = wantsJson(c)
        ? c.json({ message }, 429)
        : await this.form(c, input.email, { email: [message] }, 429);
      return withRateLimitHeaders(res, [perAddress]);
    }
    const parsed = emailField.safeParse(input);
    if (!parsed.success) {
      const errors = fieldErrors(parsed.error);
      return wantsJson(c)
        ? c.json({ message: errors.email?.[0], errors }, 422)
        : this.form(c, input.email, errors, 422);
    }
    const { email } = parsed.data;
    // Per address, counted for unknown ones too; beyond it no mail, and the same answer.
    const key = createHash('sha256').update(email).digest('hex');
    const perEmail = await this.limits.get('password-reset.email').consume(key);
    if (perEmail.allowed) await this.resets.deliver(email);
    // The mail is committed to the outbox before the answer; the answer waits for the same moment
    // whether there was an account to mail or not.
    await sleep(answerAt - performance.now());
    if (wantsJson(c)) return c.json({ message: RESET_REQUESTED }, 202);
    c.get('session')?.flash('status', RESET_REQUESTED);
    return c.redirect('/forgot-password', 303);
  }

  show(c: Context): Promise<Response> {
    return this.resetForm(c, c.req.query('token') ?? '', {});
  }

  async reset(c: Context): Promise<Response> {
    const input = formFields(await formBody(c), ['token', 'password', 'password_confirmation']);
    const parsed = newPassword.safeParse(input);
    const errors = parsed.success ? {} : fieldErrors(parsed.error);
    if (input.password !== input.password_confirmation)
      errors.password = [...(errors.password ?? []), 'The password field confirmation does not match.'];
    if (Object.keys(errors).length > 0) {
      return wantsJson(c)
        ? c.json({ message: Object.values(errors)[0]![0], errors }, 422)
        : this.resetForm(c, input.token, errors, 422);
    }
    const outcome = await this.resets.redeem(input.token, input.password, requestOrigin(c));
    if (!outcome.ok) {
      const [status, message] = FAILURES[outcome.reason];
      if (wantsJson(c)) return c.json({ message }, status as 403);
      return renderPage(c, { title: 'Reset link', status }, <Failed message={message} />);
    }
    if (wantsJson(c)) return c.json({ message: PASSWORD_RESET });
    c.get('session')?.flash('status', PASSWORD_RESET);
    return c.redirect('/login', 303);
  }

  private form(c: Context, email: string, errors: Record<string, string[]>, status: number) {
    return renderPage(
      c,
      { title: 'Forgot your password?', status },
      <RequestForm csrfToken={csrfToken(c)} email={email} errors={errors} />,
    );
  }

  private resetForm(c: Context, token: string, errors: Record<string, string[]>, status = 200) {
    return renderPage(
      c,
      { title: 'Choose a new password', status },
      <ResetForm csrfToken={csrfToken(c)} token={token} errors={errors} />,
    );
  }
}

const RequestForm: FC<{ csrfToken: string; email?: string; errors?: Record<string, string[]> }> = (p) => (
  <div class="card narrow">
    <h1>Forgot your password?</h1>
    <p>Enter your account's e-mail address and we will mail you a link to choose a new password.</p>
    <form method="post" action="/forgot-password" novalidate>
      <CsrfField token={p.csrfToken} />
      <Field
        name="email"
        label="Email"
        type="email"
        value={p.email}
        errors={p.errors?.email}
        autocomplete="username"
        required
        autofocus
      />
      <div class="actions">
        <button type="submit" class="btn btn-primary">
          Mail me a reset link
        </button>
        <a href="/login">Back to log in</a>
      </div>
    </form>
  </div>
);

const ResetForm: FC<{ csrfToken: string; token: string; errors: Record<string, string[]> }> = (p) => (
  <div class="card narrow">
    <h1>Choose a new password</h1>
    <form method="post" action="/reset-password" novalidate>
      <CsrfField token={p.csrfToken} />
      <input type="hidden" name="token" value={p.token} />
      <Field
        name="password"
        label="New password"
        type="password"
        errors={p.errors.password}
        autocomplete="new-password"
        required
        autofocus
      />
      <Field
        name="password_confirmation"
        label="Confirm password"
        type="password"
        autocomplete="new-password"
        required
      />
      <div class="actions">
        <button type="submit" class="btn btn-primary">
          Reset password
        </button>
      </div>
    </form>
  </div>
);

const Failed: FC<{ message: string }> = ({ message }) => (
  <div class="card narrow">
    <h1>Reset link</h1>
    <p role="alert">{message}</p>
    <p>
      <a href="/forgot-password">Ask for a new link</a>
    </p>
  </div>
);
