import type { Context } from 'hono';
import { z } from 'zod';
import { csrfToken, currentUser, requireSession } from '../../auth/context.js';
import { SessionStore } from '../../auth/session-store.js';
import { fieldErrors, formFields, registerSchema } from '../../auth/validation.js';
import { Container } from '../../core/container.js';
import { formBody } from '../../http/form-body.js';
import { wantsJson } from '../../http/respond.js';
import { AuditLog } from '../../observability/audit/audit-log.js';
import { renderPage } from '../../views/render.js';
import { requestOrigin } from '../request-origin.js';
import { TwoFactor } from '../two-factor/two-factor.js';
import { verifiedAt } from '../verification/email-verification.js';
import { AccountPage, type AccountPageProps } from './account-page.js';
import { AccountSections } from './account-sections.js';
import { AccountSecurity } from './account-security.js';
import { deviceName } from './device-name.js';
import { EmailChange } from './email-change.js';

export const WRONG_PASSWORD = 'The current password is incorrect.';
export const PASSWORD_CHANGED = 'Your password has been changed. Your other sessions have been signed out.';

const newPassword = z.object({ password: registerSchema.shape.password });
const newEmail = z.object({ email: registerSchema.shape.email });
export const EMAIL_TAKEN = 'The email has already been taken.';
export const SAME_EMAIL = 'This is already your e-mail address.';

/** `GET /account` and its password, e-mail and sessions forms (all behind `auth`). */
export class AccountController {
  static inject = [
    AccountSecurity,
    EmailChange,
    SessionStore,
    TwoFactor,
    AccountSections,
    Container,
  ] as const;
  readonly securityLog: boolean;

  constructor(
    private readonly security: AccountSecurity,
    private readonly emails: EmailChange,
    private readonly sessions: SessionStore,
    private readonly twoFactor: TwoFactor,
    private readonly sections: AccountSections,
    container: Container,
  ) {
    this.securityLog = container.has(AuditLog);
  }

  show(c: Context): Promise<Response> {
    return wantsJson(c) ? this.json(c) : this.page(c, {});
  }

  /** `GET /account` for a JSON client: the profile and the live sessions, newest first. */
  private async json(c: Context): Promise<Response> {
    const user = currentUser(c)!;
    const current = requireSession(c).storedHash;
    const sessions = await this.sessions.forUser(user.id);
    return c.json({
      name: user.name,
      email: user.email,
      email_verified: !!verifiedAt(user),
      sessions: sessions.map((s) => ({
        device: deviceName(s.user_agent),
        ip_address: s.ip_address,
        last_activity: s.last_activity,
        current: s.id === current,
      })),
    });
  }

  async password(c: Context): Promise<Response> {
    const user = currentUser(c)!;
    const input = formFields(await formBody(c), ['current_password', 'password', 'password_confirmation']);
    const parsed = newPassword.safeParse(input);
    const errors = parsed.success ? {} : fieldErrors(parsed.error);
    if (input.password !== input.password_confirmation)
      errors.password = [...(errors.password ?? []), 'The password field confirmation does not match.'];
    if (!(await this.security.confirms(user, input.current_password)))
      errors.current_password = [WRONG_PASSWORD];
    if (Object.keys(errors).length > 0) return this.invalid(c, { errors: { password: errors } });
    await this.security.changePassword(user, input.password, requireSession(c), requestOrigin(c));
    return this.done(c, PASSWORD_CHANGED);
  }

  /** Mails a link to the new address; nothing changes until it is confirmed there. */
  async email(c: Context): Promise<Response> {
    const user = currentUser(c)!;
    const input = formFields(await formBody(c), ['email', 'current_password']);
    const parsed = newEmail.safeParse(input);
    const errors = parsed.success ? {} : fieldErrors(parsed.error);
    if (!(await this.security.confirms(user, input.current_password)))
      errors.current_password = [WRONG_PASSWORD];
    else if (parsed.success && parsed.data.email === user.email) errors.email = [SAME_EMAIL];
    // Said only to a user who gave their password, at most 10 times in 10 minutes: the address
    // cannot be theirs either way.
    else if (parsed.success && (await this.emails.taken(parsed.data.email))) errors.email = [EMAIL_TAKEN];
    if (!parsed.success || Object.keys(errors).length > 0)
      return this.invalid(c, { errors: { email: errors }, newEmail: input.email });
    await this.emails.request(user, parsed.data.email);
    return this.done(c, `We sent a link to ${parsed.data.email}. Your address changes when you open it.`);
  }

  async endOtherSessions(c: Context): Promise<Response> {
    const ended = await this.security.endOtherSessions(currentUser(c)!, requireSession(c), requestOrigin(c));
    return this.done(c, `Signed out ${ended} other session${ended === 1 ? '' : 's'}.`);
  }

  /** A change made: JSON `{ message }`, or back to the page with it flashed. */
  done(c: Context, message: string): Response {
    if (wantsJson(c)) return c.json({ message });
    c.get('session')?.flash('status', message);
    return c.redirect('/account', 303);
  }

  /** A form refused: JSON 422 `{ message, errors }`, or the page again with the messages. */
  invalid(c: Context, props: Partial<AccountPageProps>, status = 422): Promise<Response> | Response {
    if (wantsJson(c)) {
      const errors = Object.assign({}, ...Object.values(props.errors ?? {})) as Record<string, string[]>;
      return c.json(
        { message: Object.values(errors)[0]?.[0] ?? 'The given data was invalid.', errors },
        status as 422,
      );
    }
    return this.page(c, props, status);
  }

  async page(c: Context, props: Partial<AccountPageProps>, status = 200): Promise<Response> {
    const user = currentUser(c)!;
    const session = requireSession(c);
    return renderPage(
      c,
      { title: 'Your account', status },
      <AccountPage
        name={user.name}
        email={user.email}
        verified={!!verifiedAt(user)}
        sessions={await this.sessions.forUser(user.id)}
        currentSession={session.storedHash}
        twoFactor={await this.twoFactor.state(user.id)}
        csrfToken={csrfToken(c)}
        securityLogPath={this.securityLog ? '/account/security-log' : undefined}
        sections={await this.sections.render(c, user)}
        {...props}
      />,
    );
  }
}
