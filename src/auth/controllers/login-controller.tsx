import type { Context } from 'hono';
import type { Clock } from '../../core/clock.js';
import type { TollgateConfig } from '../../core/config.js';
import { EventDispatcher } from '../../core/events.js';
import { ClockKey, ConfigKey } from '../../core/keys.js';
import { clientAddress, clientIp, withRateLimitHeaders } from '../../rate-limits/http.js';
import { renderPage } from '../../views/render.js';
import { csrfToken, login, logout, requireSession } from '../context.js';
import { LoggedOut, SignedIn, SignInFailed } from '../events.js';
import { sameSitePath } from '../intended.js';
import { LoginThrottle, waitMessage } from '../login-throttle.js';
import { AuthOptionsKey, type ResolvedAuthOptions } from '../options.js';
import { LoginPage, type LoginPageProps } from '../pages/login-page.js';
import { awaitSecondFactor, LoginSteps, PENDING_LOGIN_SECONDS } from '../second-factor.js';
import { Users } from '../users.js';
import { fieldErrors, formFields, loginSchema } from '../validation.js';

export const CREDENTIALS_MISMATCH = 'These credentials do not match our records.';

/** `GET/POST /login`, `POST /logout`. */
export class LoginController {
  static inject = [
    Users,
    LoginThrottle,
    AuthOptionsKey,
    ConfigKey,
    ClockKey,
    EventDispatcher,
    LoginSteps,
  ] as const;

  constructor(
    private readonly users: Users,
    private readonly throttle: LoginThrottle,
    private readonly options: ResolvedAuthOptions,
    private readonly config: TollgateConfig,
    private readonly clock: Clock,
    private readonly events: EventDispatcher,
    private readonly steps: LoginSteps,
  ) {}

  show(c: Context): Promise<Response> {
    return this.page(c, { intended: sameSitePath(c.req.query('intended'), this.config.app.url) });
  }

  async store(c: Context): Promise<Response> {
    const input = formFields(await c.req.parseBody(), ['email', 'password', 'intended']);
    const intended = sameSitePath(input.intended, this.config.app.url);
    const parsed = loginSchema.safeParse(input);
    if (!parsed.success) {
      return this.page(c, { email: input.email, intended, errors: fieldErrors(parsed.error) }, 422);
    }
    const { email, password } = parsed.data;
    const address = clientAddress();
    // Counted before the password is checked: parallel guesses cannot outrun the limit.
    const attempt = await this.throttle.attempt(email, address);
    if (!attempt.allowed) {
      await this.failed(c, email, 'throttled');
      const message = `Too many login attempts. ${waitMessage(attempt.results)}`;
      const res = await this.page(c, { email, intended, errors: { email: [message] } }, 429);
      return withRateLimitHeaders(res, attempt.results);
    }
    const user = await this.users.attempt(email, password).catch(async (err: unknown) => {
      await this.throttle.unanswered(email, address);
      throw err;
    });
    if (!user) {
      await this.failed(c, email, 'credentials');
      const res = await this.page(c, { email, intended, errors: { email: [CREDENTIALS_MISMATCH] } }, 422);
      return withRateLimitHeaders(res, attempt.results);
    }
    await this.throttle.succeeded(email, address);
    const now = this.clock.now();
    const [second] = await this.steps.secondFactorsFor(user);
    if (second && !(await this.steps.skipsSecondFactor(c, user))) {
      const expiresAt = Math.floor(now.getTime() / 1000) + PENDING_LOGIN_SECONDS;
      awaitSecondFactor(requireSession(c), {
        userId: user.id,
        intended: intended ?? null,
        methods: ['pwd'],
        expiresAt,
      });
      return c.redirect(second.path, 302);
    }
    // A remembered device skips the second factor: `amr` says only what was given now (`pwd`).
    login(c, user, now);
    await this.events.dispatch(new SignedIn(user, clientIp(), c.req.header('user-agent'), now));
    return c.redirect(intended ?? this.options.home, 302);
  }

  async destroy(c: Context): Promise<Response> {
    const session = requireSession(c);
    if (session.userId !== null) await this.events.dispatch(new LoggedOut(session.userId, session));
    logout(c);
    c.get('session')?.flash('status', 'You have been logged out.');
    return c.redirect('/login', 302);
  }

  private failed(c: Context, email: string, reason: SignInFailed['reason']): Promise<void> {
    const event = new SignInFailed(email, reason, clientIp(), c.req.header('user-agent'), this.clock.now());
    return this.events.dispatch(event);
  }

  private page(c: Context, props: Omit<LoginPageProps, 'csrfToken'>, status = 200): Promise<Response> {
    return renderPage(
      c,
      { title: 'Log in', status, intended: props.intended },
      <LoginPage
        csrfToken={csrfToken(c)}
        registration={this.options.registration}
        passwordResetPath={c.get('passwordResetPath')}
        alternatives={this.steps.alternatives}
        additions={this.steps.loginPage}
        {...props}
      />,
    );
  }
}
