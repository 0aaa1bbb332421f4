import type { Context } from 'hono';
import type { TollgateConfig } from '../../core/config.js';
import { ValidationError } from '../../core/errors.js';
import { EventDispatcher } from '../../core/events.js';
import { ConfigKey } from '../../core/keys.js';
import { formBody } from '../../http/form-body.js';
import { wantsJson } from '../../http/respond.js';
import { clientAddress, withRateLimitHeaders } from '../../rate-limits/http.js';
import { RateLimits } from '../../rate-limits/rate-limits.js';
import { withIntended } from '../../views/intended-link.js';
import { renderPage } from '../../views/render.js';
import { csrfToken } from '../context.js';
import { Registered, RegistrationWithTakenEmail } from '../events.js';
import { sameSitePath } from '../intended.js';
import { waitMessage } from '../login-throttle.js';
import { RegisterPage, type RegisterPageProps } from '../pages/register-page.js';
import { Users } from '../users.js';
import { formFields, validateRegistration } from '../validation.js';

/**
 * What every valid sign-up is told, whether the e-mail was free or taken: the form must not tell
 * a visitor which addresses have an account. The new user signs in next, on the login page.
 */
export const REGISTERED =
  'Thank you. If this e-mail address was not registered yet, your account is ready: log in with it below.';
/** `REGISTERED` for a JSON client, which has no login form below. */
export const REGISTERED_JSON =
  'Thank you. If this e-mail address was not registered yet, your account is ready: log in with it.';

const FIELDS = ['name', 'email', 'password', 'password_confirmation', 'intended'] as const;

/**
 * `GET/POST /register`: invalid input comes back next to the fields (422), the name and e-mail
 * kept; a valid form always ends on the login page with the same message, account created or not.
 * A JSON client (a JSON body or `Accept: application/json`) gets `202 { message }` alike for both,
 * or `422 { message, errors }`. Attempts are counted per client address before anything else.
 */
export class RegisterController {
  static inject = [Users, RateLimits, EventDispatcher, ConfigKey] as const;

  constructor(
    private readonly users: Users,
    private readonly limits: RateLimits,
    private readonly events: EventDispatcher,
    private readonly config: TollgateConfig,
  ) {}

  show(c: Context): Promise<Response> {
    return this.page(c, { intended: sameSitePath(c.req.query('intended'), this.config.app.url) });
  }

  async store(c: Context): Promise<Response> {
    const input = formFields(await formBody(c), FIELDS);
    const old = { name: input.name, email: input.email };
    const intended = sameSitePath(input.intended, this.config.app.url);
    const limit = await this.limits.get('registration.address').consume(clientAddress());
    if (!limit.allowed) {
      const message = `Too many registration attempts. ${waitMessage([limit])}`;
      const res = wantsJson(c)
        ? c.json({ message }, 429)
        : await this.page(c, { old, intended, errors: { email: [message] } }, 429);
      return withRateLimitHeaders(res, [limit]);
    }
    const { data, errors } = validateRegistration(input);
    if (errors) {
      return wantsJson(c)
        ? c.json({ message: Object.values(errors)[0]![0], errors }, 422)
        : this.page(c, { old, intended, errors }, 422);
    }
    const created = await this.users.create(data).catch((err: unknown) => {
      // Taken (also when another sign-up with this address won the race): the same answer.
      if (err instanceof ValidationError) return undefined;
      throw err;
    });
    await this.events.dispatch(
      created ? new Registered(created) : new RegistrationWithTakenEmail(data.email),
    );
    const notice = c.get('registrationNotice');
    if (wantsJson(c)) return c.json({ message: notice ?? REGISTERED_JSON }, 202);
    c.get('session')?.flash('status', notice ?? REGISTERED);
    // The approval (or page) the visitor came from waits behind the login.
    return c.redirect(withIntended('/login', intended), 302);
  }

  private page(c: Context, props: Omit<RegisterPageProps, 'csrfToken'>, status = 200): Promise<Response> {
    return renderPage(
      c,
      { title: 'Register', status, intended: props.intended },
      <RegisterPage csrfToken={csrfToken(c)} {...props} />,
    );
  }
}
