import type { Context } from 'hono';
import type { TollgateConfig } from '../../core/config.js';
import { ConfigKey } from '../../core/keys.js';
import { renderPage } from '../../views/render.js';
import { csrfToken, login, logout } from '../context.js';
import { sameSitePath } from '../intended.js';
import { AuthOptionsKey, LoginRateLimiterKey, type ResolvedAuthOptions } from '../options.js';
import { LoginPage, type LoginPageProps } from '../pages/login-page.js';
import type { RateLimiter } from '../rate-limiter.js';
import { Users } from '../users.js';
import { fieldErrors, formFields, loginSchema } from '../validation.js';

export const CREDENTIALS_MISMATCH = 'These credentials do not match our records.';

/** `GET/POST /login`, `POST /logout`. */
export class LoginController {
  static inject = [Users, LoginRateLimiterKey, AuthOptionsKey, ConfigKey] as const;

  constructor(
    private readonly users: Users,
    private readonly limiter: RateLimiter,
    private readonly options: ResolvedAuthOptions,
    private readonly config: TollgateConfig,
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
    const key = `${email}|${clientAddress(c)}`;
    if (this.limiter.tooManyAttempts(key)) {
      const message = `Too many login attempts. Please try again in ${this.limiter.availableIn(key)} seconds.`;
      return this.page(c, { email, intended, errors: { email: [message] } }, 429);
    }
    const user = await this.users.attempt(email, password);
    if (!user) {
      this.limiter.hit(key);
      return this.page(c, { email, intended, errors: { email: [CREDENTIALS_MISMATCH] } }, 422);
    }
    this.limiter.clear(key);
    login(c, user);
    return c.redirect(intended ?? this.options.home, 302);
  }

  destroy(c: Context): Response {
    logout(c);
    c.get('session')?.flash('status', 'You have been logged out.');
    return c.redirect('/login', 302);
  }

  private page(c: Context, props: Omit<LoginPageProps, 'csrfToken'>, status = 200): Promise<Response> {
    return renderPage(
      c,
      { title: 'Log in', status },
      <LoginPage csrfToken={csrfToken(c)} registration={this.options.registration} {...props} />,
    );
  }
}

/** The peer address under @hono/node-server; requests handed to `app.fetch` in process have none. */
function clientAddress(c: Context): string {
  const env = c.env as { incoming?: { socket?: { remoteAddress?: string } } } | undefined;
  return env?.incoming?.socket?.remoteAddress ?? 'local';
}
