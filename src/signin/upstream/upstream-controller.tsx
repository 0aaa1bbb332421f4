import type { Context } from 'hono';
import { requestOrigin } from '../../accounts/index.js';
import {
  AuthOptionsKey,
  awaitSecondFactor,
  csrfToken,
  currentUser,
  formFields,
  LoginSteps,
  LoginThrottle,
  login,
  PENDING_LOGIN_SECONDS,
  type ResolvedAuthOptions,
  requireSession,
  SignedIn,
  sameSitePath,
  type User,
  Users,
  waitMessage,
} from '../../auth/index.js';
import type { Clock } from '../../core/clock.js';
import type { TollgateConfig } from '../../core/config.js';
import { HttpError } from '../../core/errors.js';
import { EventDispatcher } from '../../core/events.js';
import { ClockKey, ConfigKey, LoggerKey } from '../../core/keys.js';
import type { Logger } from '../../core/logger.js';
import { clientAddress, clientIp } from '../../rate-limits/http.js';
import { renderPage } from '../../views/render.js';
import type { UpstreamIdentity, UpstreamRequest } from './upstream-client.js';
import { UpstreamError } from './upstream-error.js';
import { ConfirmLinkPage, UpstreamProblemPage } from './upstream-pages.js';
import { UpstreamProviders } from './upstream-providers.js';
import { UpstreamSignIn } from './upstream-sign-in.js';

/** The session key of a sign-in sent to a provider, until its callback. */
const REQUEST = 'signin.upstream.request';
/** The session key of an identity whose address has an account, until its owner gives the password. */
const CONFIRM = 'signin.upstream.confirm';
const WAIT_SECONDS = 600;

interface PendingRequest extends UpstreamRequest {
  provider: string;
  /** `link`: from the account page, for the signed-in `userId`. */
  intent: 'login' | 'link';
  userId: number | null;
  intended: string | null;
  expiresAt: number;
}

interface PendingConfirm {
  provider: string;
  identity: UpstreamIdentity;
  userId: number;
  intended: string | null;
  expiresAt: number;
}

export const WRONG_PASSWORD = 'The password is incorrect.';

/**
 * `GET /login/{provider}` → the provider → `GET /login/{provider}/callback`: sign-in, sign-up,
 * and linking (`POST /account/sign-in/{provider}/link`); `GET/POST /login/{provider}/link` for
 * an address that has an account.
 */
export class UpstreamController {
  static inject = [
    UpstreamProviders,
    UpstreamSignIn,
    Users,
    LoginThrottle,
    LoginSteps,
    AuthOptionsKey,
    ConfigKey,
    ClockKey,
    EventDispatcher,
    LoggerKey,
  ] as const;

  constructor(
    private readonly providers: UpstreamProviders,
    private readonly signIn: UpstreamSignIn,
    private readonly users: Users,
    private readonly throttle: LoginThrottle,
    private readonly steps: LoginSteps,
    private readonly options: ResolvedAuthOptions,
    private readonly config: TollgateConfig,
    private readonly clock: Clock,
    private readonly events: EventDispatcher,
    private readonly logger: Logger,
  ) {}

  /** Sends the browser to the provider to sign in. */
  redirect(provider: string, c: Context): Promise<Response> {
    const intended = sameSitePath(c.req.query('intended'), this.config.app.url) ?? null;
    return this.begin(c, provider, { intent: 'login', userId: null, intended });
  }

  /** From the account page: sends the signed-in user to the provider to link it. */
  link(provider: string, c: Context): Promise<Response> {
    return this.begin(c, provider, { intent: 'link', userId: currentUser(c)!.id, intended: null });
  }

  async callback(provider: string, c: Context): Promise<Response> {
    const client = this.client(provider);
    const session = requireSession(c);
    const pending = session.get<PendingRequest>(REQUEST);
    session.forget(REQUEST);
    const back = pending?.intent === 'link' ? '/account#linked-accounts' : '/login';
    let identity: UpstreamIdentity;
    try {
      if (!pending || pending.provider !== provider || pending.expiresAt < this.seconds())
        throw new UpstreamError('state', 'This sign-in did not start in this browser, or it expired.');
      const url = new URL(this.providers.callbackUrl(provider));
      url.search = new URL(c.req.url).search;
      identity = await client.finish(url, pending);
    } catch (error) {
      if (!(error instanceof UpstreamError)) throw error;
      this.logger.warn({ provider, reason: error.reason, detail: error.detail }, 'upstream sign-in failed');
      return this.problem(c, error.message, error.reason === 'unavailable' ? 502 : 400, back);
    }
    if (pending.intent === 'link') return this.linkToSignedIn(c, provider, identity, pending.userId);
    return this.arrive(c, provider, identity, pending.intended);
  }

  /** The page asking the owner of the address for its password. */
  confirm(provider: string, c: Context): Promise<Response> | Response {
    const waiting = this.waitingConfirm(c, provider);
    if (!waiting) return c.redirect('/login', 302);
    return this.confirmPage(c, waiting);
  }

  async confirmLink(provider: string, c: Context): Promise<Response> {
    const waiting = this.waitingConfirm(c, provider);
    const owner = waiting && (await this.users.find(waiting.userId));
    if (!waiting || !owner) return c.redirect('/login', 302);
    const { password = '' } = formFields(await c.req.parseBody(), ['password']);
    const address = clientAddress();
    const attempt = await this.throttle.attempt(owner.email, address);
    if (!attempt.allowed)
      return this.confirmPage(c, waiting, [`Too many attempts. ${waitMessage(attempt.results)}`], 429);
    const user = password ? await this.users.attempt(owner.email, password) : undefined;
    if (!user || user.id !== owner.id) return this.confirmPage(c, waiting, [WRONG_PASSWORD], 422);
    await this.throttle.succeeded(owner.email, address);
    requireSession(c).forget(CONFIRM);
    await this.signIn.link(user, provider, waiting.identity, 'sign-in', requestOrigin(c));
    return this.complete(c, user, ['pwd', 'fed'], waiting.intended);
  }

  private async begin(
    c: Context,
    provider: string,
    how: Pick<PendingRequest, 'intent' | 'userId' | 'intended'>,
  ) {
    const client = this.client(provider);
    let started: Awaited<ReturnType<typeof client.begin>>;
    try {
      started = await client.begin(this.providers.callbackUrl(provider));
    } catch (error) {
      if (!(error instanceof UpstreamError)) throw error;
      this.logger.warn({ provider, detail: error.detail }, 'upstream provider unavailable');
      return this.problem(c, error.message, 502, how.intent === 'link' ? '/account' : '/login');
    }
    const pending: PendingRequest = {
      ...started.request,
      ...how,
      provider,
      expiresAt: this.seconds() + WAIT_SECONDS,
    };
    requireSession(c).put(REQUEST, pending);
    return c.redirect(started.url.href, 303);
  }

  private async arrive(
    c: Context,
    provider: string,
    identity: UpstreamIdentity,
    intended: string | null,
    again = false,
  ): Promise<Response> {
    const label = this.client(provider).provider.label;
    const outcome = await this.signIn.resolve(provider, identity);
    switch (outcome.kind) {
      case 'user':
        return this.complete(c, outcome.user, ['fed'], intended);
      case 'confirm': {
        const waiting: PendingConfirm = {
          provider,
          identity,
          userId: outcome.user.id,
          intended,
          expiresAt: this.seconds() + WAIT_SECONDS,
        };
        requireSession(c).put(CONFIRM, waiting);
        return c.redirect(`/login/${provider}/link`, 303);
      }
      case 'unverified-match':
        return this.problem(
          c,
          `An account with this e-mail address exists, but ${label} has not verified that the address is yours. Log in with your password, then link ${label} from your account page.`,
          409,
        );
      case 'no-verified-email':
        return this.problem(
          c,
          `${label} did not give a verified e-mail address, which a new account needs. Verify your address there, or register with a password.`,
          422,
        );
      default: {
        if (!this.options.registration) return this.problem(c, 'New accounts cannot be made here.', 403);
        const user = await this.signIn.signUp(provider, identity, requestOrigin(c));
        if (user) return this.complete(c, user, ['fed'], intended);
        // Another callback made the account first: what it made decides (asked once more, no loop).
        if (!again) return this.arrive(c, provider, identity, intended, true);
        return this.problem(c, 'An account with this e-mail address was just made. Try again.', 409);
      }
    }
  }

  private async linkToSignedIn(
    c: Context,
    provider: string,
    identity: UpstreamIdentity,
    userId: number | null,
  ) {
    const user = currentUser(c);
    const back = '/account#linked-accounts';
    if (!user || user.id !== userId)
      return this.problem(c, 'This sign-in did not start in this browser, or it expired.', 400, back);
    const label = this.client(provider).provider.label;
    if (!(await this.signIn.link(user, provider, identity, 'account', requestOrigin(c)))) {
      const linkedTo = await this.signIn.resolve(provider, identity);
      const message =
        linkedTo.kind === 'user' && linkedTo.user.id === user.id
          ? `${label} is already linked to your account.`
          : `This ${label} account is linked to another user, or you linked another ${label} account already.`;
      return this.problem(c, message, 409, back);
    }
    requireSession(c).flash('status', `${label} is linked: you can sign in with it.`);
    return c.redirect('/account#linked-accounts', 303);
  }

  /** Signs the user in, or parks the sign-in for the second factor the user has. */
  private async complete(c: Context, user: User, methods: string[], intended: string | null) {
    const now = this.clock.now();
    const [second] = await this.steps.secondFactorsFor(user);
    if (second && !(await this.steps.skipsSecondFactor(c, user))) {
      awaitSecondFactor(requireSession(c), {
        userId: user.id,
        intended,
        methods,
        expiresAt: this.seconds() + PENDING_LOGIN_SECONDS,
      });
      return c.redirect(second.path, 303);
    }
    login(c, user, now, methods);
    await this.events.dispatch(new SignedIn(user, clientIp(), c.req.header('user-agent'), now, methods));
    return c.redirect(intended ?? this.options.home, 303);
  }

  private waitingConfirm(c: Context, provider: string): PendingConfirm | undefined {
    this.client(provider);
    const waiting = requireSession(c).get<PendingConfirm>(CONFIRM);
    if (!waiting || waiting.provider !== provider || waiting.expiresAt < this.seconds()) return undefined;
    return waiting;
  }

  private confirmPage(c: Context, waiting: PendingConfirm, errors?: string[], status = 200) {
    const label = this.client(waiting.provider).provider.label;
    return renderPage(
      c,
      { title: `Link ${label}`, status },
      <ConfirmLinkPage
        label={label}
        email={waiting.identity.email ?? ''}
        action={`/login/${waiting.provider}/link`}
        csrfToken={csrfToken(c)}
        errors={errors}
      />,
    );
  }

  private problem(c: Context, message: string, status: number, back = '/login') {
    return renderPage(
      c,
      { title: 'Sign-in did not work', status },
      <UpstreamProblemPage message={message} back={back} />,
    );
  }

  private client(provider: string) {
    const client = this.providers.get(provider);
    if (!client) throw new HttpError(404, 'Not Found');
    return client;
  }

  private seconds(): number {
    return Math.floor(this.clock.now().getTime() / 1000);
  }
}
