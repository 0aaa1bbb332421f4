import type { Context } from 'hono';
import { csrfToken, login, requireSession } from '../../auth/context.js';
import { SignedIn } from '../../auth/events.js';
import { waitMessage } from '../../auth/login-throttle.js';
import { AuthOptionsKey, type ResolvedAuthOptions } from '../../auth/options.js';
import {
  forgetPendingLogin,
  LoginSteps,
  pendingLogin,
  REMEMBER_DEVICE_FIELD,
} from '../../auth/second-factor.js';
import { Users } from '../../auth/users.js';
import { formFields } from '../../auth/validation.js';
import type { Clock } from '../../core/clock.js';
import { EventDispatcher } from '../../core/events.js';
import { ClockKey } from '../../core/keys.js';
import { formBody } from '../../http/form-body.js';
import { wantsJson } from '../../http/respond.js';
import { clientIp, withRateLimitHeaders } from '../../rate-limits/http.js';
import { RateLimits } from '../../rate-limits/rate-limits.js';
import { renderPage } from '../../views/render.js';
import { requestOrigin } from '../request-origin.js';
import { TwoFactor } from './two-factor.js';
import { ChallengePage } from './two-factor-pages.js';

export const WRONG_CODE = 'This code is not valid.';
export const REPLAYED_CODE = 'This code was already used. Wait for the next one.';
export const SIGN_IN_EXPIRED = 'Your sign-in took too long. Log in again.';

/**
 * `GET/POST /login/two-factor`: the login's second step, after the right password. Codes are
 * counted per user before they are checked (`two-factor.account`, with back-off); wrong codes in a
 * row lock the factor (`TwoFactor.check`).
 */
export class TwoFactorChallengeController {
  static inject = [
    TwoFactor,
    Users,
    RateLimits,
    ClockKey,
    EventDispatcher,
    AuthOptionsKey,
    LoginSteps,
  ] as const;

  constructor(
    private readonly twoFactor: TwoFactor,
    private readonly users: Users,
    private readonly limits: RateLimits,
    private readonly clock: Clock,
    private readonly events: EventDispatcher,
    private readonly options: ResolvedAuthOptions,
    private readonly steps: LoginSteps,
  ) {}

  show(c: Context): Promise<Response> | Response {
    if (!pendingLogin(requireSession(c), this.clock.now())) return c.redirect('/login', 302);
    return this.page(c);
  }

  async verify(c: Context): Promise<Response> {
    const session = requireSession(c);
    const now = this.clock.now();
    const pending = pendingLogin(session, now);
    const user = pending && (await this.users.find(pending.userId));
    if (!pending || !user) return this.restart(c);
    const fields = formFields(await formBody(c), ['code', REMEMBER_DEVICE_FIELD]);
    const code = fields.code ?? '';
    if (!code.trim()) return this.refuse(c, 'The code field is required.', 422);
    const limit = this.limits.get('two-factor.account');
    const counted = await limit.consume(`user:${user.id}`);
    if (!counted.allowed) {
      const res = await this.refuse(c, `Too many codes. ${waitMessage([counted])}`, 429);
      return withRateLimitHeaders(res, [counted]);
    }
    const result = await this.twoFactor.check(user, code, requestOrigin(c));
    switch (result.outcome) {
      case 'accepted': {
        await limit.clear(`user:${user.id}`);
        forgetPendingLogin(session);
        const methods = [...pending.methods, 'otp'];
        login(c, user, now, methods);
        if (fields[REMEMBER_DEVICE_FIELD] === '1') await this.steps.deviceMemory?.remember(c, user);
        await this.events.dispatch(new SignedIn(user, clientIp(), c.req.header('user-agent'), now, methods));
        if (wantsJson(c))
          return c.json({ message: 'Signed in.', redirect: pending.intended ?? this.options.home });
        return c.redirect(pending.intended ?? this.options.home, 302);
      }
      case 'locked':
        return this.refuse(
          c,
          `Too many wrong codes: two-factor sign-in is locked until ${lockEnd(result.until)}. We sent you an e-mail.`,
          423,
        );
      case 'replayed':
        return this.refuse(c, REPLAYED_CODE, 422);
      case 'not-enrolled':
        return this.restart(c);
      default:
        return this.refuse(c, WRONG_CODE, 422);
    }
  }

  /** No login waiting (expired, or 2FA turned off meanwhile): back to the password. */
  private restart(c: Context): Response {
    forgetPendingLogin(requireSession(c));
    if (wantsJson(c)) return c.json({ message: SIGN_IN_EXPIRED }, 401);
    c.get('session')?.flash('status', SIGN_IN_EXPIRED);
    return c.redirect('/login', 302);
  }

  private refuse(c: Context, message: string, status: 422 | 423 | 429): Promise<Response> | Response {
    if (wantsJson(c)) return c.json({ message, errors: { code: [message] } }, status);
    return this.page(c, [message], status);
  }

  private page(c: Context, errors?: string[], status = 200): Promise<Response> {
    return renderPage(
      c,
      { title: 'Two-factor authentication', status },
      <ChallengePage csrfToken={csrfToken(c)} errors={errors} rememberDays={this.steps.deviceMemory?.days} />,
    );
  }
}

function lockEnd(until: Date): string {
  return `${until.toISOString().slice(0, 16).replace('T', ' ')} UTC`;
}
