import type { AuthenticationResponseJSON } from '@simplewebauthn/server';
import type { Context } from 'hono';
import { requestOrigin } from '../../accounts/index.js';
import {
  AuthOptionsKey,
  csrfToken,
  forgetPendingLogin,
  LoginSteps,
  login,
  pendingLogin,
  type ResolvedAuthOptions,
  requireSession,
  SessionStore,
  SignedIn,
  sameSitePath,
  Users,
} from '../../auth/index.js';
import type { Clock } from '../../core/clock.js';
import type { TollgateConfig } from '../../core/config.js';
import { EventDispatcher } from '../../core/events.js';
import { ClockKey, ConfigKey } from '../../core/keys.js';
import { jsonBody } from '../../http/json-body.js';
import { clientIp } from '../../rate-limits/http.js';
import { renderPage } from '../../views/render.js';
import { PasskeyRefused } from '../events.js';
import { rememberChallenge, takeChallenge } from './challenges.js';
import { PasskeyStepPage } from './passkey-pages.js';
import { Passkeys } from './passkeys.js';

export const PASSKEY_EXPIRED = 'This passkey request expired or was already answered. Try again.';
export const PASSKEY_REFUSED = 'This passkey could not sign you in.';

/** RFC 8176: a hardware-held key (`hwk`), with the user verified on the authenticator (`user`). */
const PASSKEY_AMR = ['hwk', 'user'];

/**
 * `POST /login/passkey/options`, `POST /login/passkey`: signing in with a passkey — alone (any
 * passkey the browser holds, from the button or autofill), or as the second step after the password
 * (`GET /login/passkey`: then only that user's passkeys).
 */
export class PasskeyLoginController {
  static inject = [
    Passkeys,
    Users,
    SessionStore,
    LoginSteps,
    ClockKey,
    EventDispatcher,
    AuthOptionsKey,
    ConfigKey,
  ] as const;

  constructor(
    private readonly passkeys: Passkeys,
    private readonly users: Users,
    private readonly sessions: SessionStore,
    private readonly steps: LoginSteps,
    private readonly clock: Clock,
    private readonly events: EventDispatcher,
    private readonly options: ResolvedAuthOptions,
    private readonly config: TollgateConfig,
  ) {}

  async step(c: Context): Promise<Response> {
    const pending = pendingLogin(requireSession(c), this.clock.now());
    const user = pending && (await this.users.find(pending.userId));
    if (!user) return c.redirect('/login', 302);
    const others = (await this.steps.secondFactorsFor(user)).filter((step) => step.path !== c.req.path);
    return renderPage(
      c,
      { title: 'Use your passkey' },
      <PasskeyStepPage
        csrfToken={csrfToken(c)}
        others={others}
        rememberDays={this.steps.deviceMemory?.days}
      />,
    );
  }

  async challenge(c: Context): Promise<Response> {
    const now = this.clock.now();
    const pending = pendingLogin(requireSession(c), now);
    const options = await this.passkeys.authenticationOptions(pending?.userId);
    rememberChallenge(c, options.challenge, 'authenticate', now);
    return c.json(options);
  }

  async verify(c: Context): Promise<Response> {
    const body = (await jsonBody(c)) as { credential?: unknown; intended?: unknown; remember?: unknown };
    const credential = assertionIn(body.credential);
    if (!credential) return c.json({ message: 'The credential field is required.' }, 422);
    const now = this.clock.now();
    const session = requireSession(c);
    const challenge = await takeChallenge(c, this.sessions, 'authenticate', now);
    if (!challenge) return this.refuse(c, null, 'no challenge in this session', PASSKEY_EXPIRED, 400);
    const pending = pendingLogin(session, now);
    const result = await this.passkeys.authenticate(credential, challenge, pending?.userId);
    if (result.outcome === 'refused')
      return this.refuse(c, result.userId, result.reason, PASSKEY_REFUSED, 422);
    const user = await this.users.find(result.userId);
    if (!user) return this.refuse(c, null, 'user gone', PASSKEY_REFUSED, 422);
    const methods = pending ? [...pending.methods, ...PASSKEY_AMR] : PASSKEY_AMR;
    const intended =
      pending?.intended ??
      sameSitePath(typeof body.intended === 'string' ? body.intended : undefined, this.config.app.url);
    if (pending) forgetPendingLogin(session);
    login(c, user, now, methods);
    // Remembered only after a second step: a passkey alone has no step to skip.
    if (pending && body.remember === true) await this.steps.deviceMemory?.remember(c, user);
    await this.events.dispatch(new SignedIn(user, clientIp(), c.req.header('user-agent'), now, methods));
    return c.json({ message: 'Signed in.', redirect: intended ?? this.options.home });
  }

  private async refuse(
    c: Context,
    userId: number | null,
    reason: string,
    message: string,
    status: 400 | 422,
  ): Promise<Response> {
    await this.events.dispatch(new PasskeyRefused(userId, reason, requestOrigin(c), this.clock.now()));
    return c.json({ message }, status);
  }
}

/** The browser's answer, if it has the shape @simplewebauthn/server reads; the checks are its. */
function assertionIn(value: unknown): AuthenticationResponseJSON | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  const { id, response, type } = value as Record<string, unknown>;
  if (typeof id !== 'string' || type !== 'public-key' || typeof response !== 'object' || response === null)
    return undefined;
  const { clientDataJSON, authenticatorData, signature } = response as Record<string, unknown>;
  if (
    typeof clientDataJSON !== 'string' ||
    typeof authenticatorData !== 'string' ||
    typeof signature !== 'string'
  )
    return undefined;
  return value as AuthenticationResponseJSON;
}
