import type { Context } from 'hono';
import type { Clock } from '../foundation/clock.js';
import { ValidationError } from '../foundation/errors.js';
import { renderPage } from '../views/render.js';
import { csrfToken, login, logout } from './context.js';
import { sameSitePath } from './intended.js';
import { LoginPage } from './pages/login-page.js';
import { RegisterPage } from './pages/register-page.js';
import { RateLimiter } from './rate-limiter.js';
import type { Users } from './users.js';
import { fieldErrors, formFields, loginSchema, registerSchema } from './validation.js';

export const CREDENTIALS_MISMATCH = 'These credentials do not match our records.';

export interface AuthPagesOptions {
  appUrl: string;
  home: string;
  registration: boolean;
  maxLoginAttempts: number;
}

/** The login, logout and registration actions, as closures over their services. */
export function authControllers(users: Users, clock: Clock, options: AuthPagesOptions) {
  const limiter = new RateLimiter(clock, options.maxLoginAttempts, 60);

  const loginPage = (
    c: Context,
    props: { email?: string; intended?: string; errors?: Record<string, string[]> },
    status = 200,
  ) =>
    renderPage(
      c,
      { title: 'Log in', status },
      <LoginPage csrfToken={csrfToken(c)} registration={options.registration} {...props} />,
    );

  const registerPage = (
    c: Context,
    props: { old?: { name?: string; email?: string }; errors?: Record<string, string[]> },
    status = 200,
  ) => renderPage(c, { title: 'Register', status }, <RegisterPage csrfToken={csrfToken(c)} {...props} />);

  return {
    showLogin(c: Context) {
      return loginPage(c, { intended: sameSitePath(c.req.query('intended'), options.appUrl) });
    },

    async login(c: Context) {
      const input = formFields(await c.req.parseBody(), ['email', 'password', 'intended']);
      const intended = sameSitePath(input.intended, options.appUrl);
      const parsed = loginSchema.safeParse(input);
      if (!parsed.success)
        return loginPage(c, { email: input.email, intended, errors: fieldErrors(parsed.error) }, 422);
      const { email, password } = parsed.data;
      const key = `${email}|${clientAddress(c)}`;
      if (limiter.tooManyAttempts(key)) {
        const message = `Too many login attempts. Please try again in ${limiter.availableIn(key)} seconds.`;
        return loginPage(c, { email, intended, errors: { email: [message] } }, 429);
      }
      const user = await users.attempt(email, password);
      if (!user) {
        limiter.hit(key);
        return loginPage(c, { email, intended, errors: { email: [CREDENTIALS_MISMATCH] } }, 422);
      }
      limiter.clear(key);
      login(c, user);
      return c.redirect(intended ?? options.home, 302);
    },

    logout(c: Context) {
      logout(c);
      c.get('session')?.flash('status', 'You have been logged out.');
      return c.redirect('/login', 302);
    },

    showRegister(c: Context) {
      return registerPage(c, {});
    },

    async register(c: Context) {
      const input = formFields(await c.req.parseBody(), [
        'name',
        'email',
        'password',
        'password_confirmation',
      ]);
      const old = { name: input.name, email: input.email };
      const parsed = registerSchema.safeParse(input);
      if (!parsed.success) return registerPage(c, { old, errors: fieldErrors(parsed.error) }, 422);
      try {
        const user = await users.create(parsed.data);
        login(c, user);
      } catch (err) {
        if (err instanceof ValidationError) return registerPage(c, { old, errors: err.errors }, 422);
        throw err;
      }
      c.get('session')?.flash('status', 'Welcome! Your account is ready.');
      return c.redirect(options.home, 302);
    },
  };
}

/** The peer address under @hono/node-server; requests handed to `app.fetch` in process have none. */
function clientAddress(c: Context): string {
  const env = c.env as { incoming?: { socket?: { remoteAddress?: string } } } | undefined;
  return env?.incoming?.socket?.remoteAddress ?? 'local';
}
