import type { Context } from 'hono';
import { ValidationError } from '../../core/errors.js';
import { renderPage } from '../../views/render.js';
import { csrfToken, login } from '../context.js';
import { AuthOptionsKey, type ResolvedAuthOptions } from '../options.js';
import { RegisterPage, type RegisterPageProps } from '../pages/register-page.js';
import { Users } from '../users.js';
import { formFields, validateRegistration } from '../validation.js';

/** `GET/POST /register`: errors next to the fields, the name and e-mail kept. */
export class RegisterController {
  static inject = [Users, AuthOptionsKey] as const;

  constructor(
    private readonly users: Users,
    private readonly options: ResolvedAuthOptions,
  ) {}

  show(c: Context): Promise<Response> {
    return this.page(c, {});
  }

  async store(c: Context): Promise<Response> {
    const input = formFields(await c.req.parseBody(), ['name', 'email', 'password', 'password_confirmation']);
    const old = { name: input.name, email: input.email };
    const { data, errors } = validateRegistration(input);
    if (errors) return this.page(c, { old, errors }, 422);
    try {
      login(c, await this.users.create(data));
    } catch (err) {
      if (err instanceof ValidationError) return this.page(c, { old, errors: err.errors }, 422);
      throw err;
    }
    c.get('session')?.flash('status', 'Welcome! Your account is ready.');
    return c.redirect(this.options.home, 302);
  }

  private page(c: Context, props: Omit<RegisterPageProps, 'csrfToken'>, status = 200): Promise<Response> {
    return renderPage(c, { title: 'Register', status }, <RegisterPage csrfToken={csrfToken(c)} {...props} />);
  }
}
