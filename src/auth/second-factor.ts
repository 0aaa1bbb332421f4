import type { Context } from 'hono';
import type { FC } from 'hono/jsx';
import { LOG_IN_AGAIN } from './auth-time.js';
import type { Session } from './session.js';
import type { User } from './user.js';

/**
 * The login page's second step, declared here and filled by a module that offers one (the
 * accounts module's authenticator app): after the right password, a user it `requires` is sent
 * to `path` instead of being signed in.
 */
export interface SecondFactor {
  requires(user: User): Promise<boolean>;
  path: string;
  /** How the step's page names it to a user who has several ("Use your passkey"). */
  label?: string;
}

/**
 * What a sign-in module adds to the login page: a section below the password form (a passkey
 * button, "Sign in with …"), the scripts it needs, and `autocomplete` tokens for the e-mail field
 * (`webauthn` lets the browser offer passkeys there).
 */
export interface LoginPageAddition {
  section?: FC<{ csrfToken: string; intended?: string | undefined }>;
  scripts?: string[];
  autocomplete?: string;
}

/** The session key of a login waiting for its second factor. */
export const PENDING_LOGIN = 'auth.pending_login';

/** A password that matched, waiting for the second factor. */
export interface PendingLogin {
  userId: number;
  /** Where to go once signed in. */
  intended: string | null;
  /** The methods given so far (`pwd`). */
  methods: string[];
  /** Seconds since the epoch after which the password has to be given again. */
  expiresAt: number;
}

/** How long the second step waits for its code after the password. */
export const PENDING_LOGIN_SECONDS = 300;

/** Another way to sign in, offered on the login page as a link ("Sign in with GitHub"). */
export interface SignInAlternative {
  label: string;
  /** Where the link leads; the page adds `?intended=` when it has one. */
  href: string;
}

/**
 * "Remember this device": a browser that gave the second factor with the box ticked skips it at
 * its user's next logins, for `days`. Declared here, kept by a sign-in module.
 */
export interface DeviceMemory {
  days: number;
  /** Whether this request's browser is remembered for `user` (anything forged, expired or revoked: no). */
  recognises(c: Context, user: User): Promise<boolean>;
  /** Remembers this request's browser for `user`, after a second factor they just gave. */
  remember(c: Context, user: User): Promise<void>;
}

/** The second step's checkbox (`remember_device=1`). */
export const REMEMBER_DEVICE_FIELD = 'remember_device';

/**
 * Where the login page's second step, and the other ways to sign in, plug in (a singleton of
 * `authProvider()`).
 */
export class LoginSteps {
  readonly #secondFactors: SecondFactor[] = [];
  readonly loginPage: LoginPageAddition[] = [];
  readonly alternatives: SignInAlternative[] = [];
  #deviceMemory: DeviceMemory | undefined;

  /** Offers "Remember this device" on the second step. */
  rememberDevicesWith(memory: DeviceMemory): void {
    this.#deviceMemory = memory;
  }

  get deviceMemory(): DeviceMemory | undefined {
    return this.#deviceMemory;
  }

  /**
   * Whether `user` may skip the second factor on this browser. Never when the login was asked for
   * again (`prompt=login`, `max_age`, a step-up to two factors, `fresh-auth`): that asks for all.
   */
  async skipsSecondFactor(c: Context, user: User): Promise<boolean> {
    const session = c.get('session');
    if (!this.#deviceMemory || session?.get(LOG_IN_AGAIN) === 'asked') return false;
    return this.#deviceMemory.recognises(c, user);
  }

  /** Offers another way to sign in on the login page, after the password form. */
  offer(alternative: SignInAlternative): void {
    this.alternatives.push(alternative);
  }

  /**
   * Registers a second factor (the authenticator app, a passkey). A user who has several is sent
   * to the first registered with `first`, else the first registered; its page offers the others.
   */
  useSecondFactor(step: SecondFactor, options: { first?: boolean } = {}): void {
    if (options.first) this.#secondFactors.unshift(step);
    else this.#secondFactors.push(step);
  }

  /** The second factors the user has, in the order they are offered (none: signed in after the password). */
  async secondFactorsFor(user: User): Promise<SecondFactor[]> {
    const has = await Promise.all(this.#secondFactors.map((step) => step.requires(user)));
    return this.#secondFactors.filter((_, i) => has[i]);
  }

  /** Adds a section, scripts or autocomplete tokens to the login page. */
  addToLoginPage(addition: LoginPageAddition): void {
    this.loginPage.push(addition);
  }
}

/** Parks a login whose password matched until its second factor comes. */
export function awaitSecondFactor(session: Session, pending: PendingLogin): void {
  // A new id: what was planted before the password is worth nothing after it.
  session.regenerate();
  session.put(PENDING_LOGIN, pending);
}

/** The login waiting for its second factor, unless it expired (then it is forgotten). */
export function pendingLogin(session: Session, now: Date): PendingLogin | undefined {
  const pending = session.get<PendingLogin>(PENDING_LOGIN);
  if (!pending) return undefined;
  if (pending.expiresAt < Math.floor(now.getTime() / 1000)) {
    session.forget(PENDING_LOGIN);
    return undefined;
  }
  return pending;
}

export function forgetPendingLogin(session: Session): void {
  session.forget(PENDING_LOGIN);
}
