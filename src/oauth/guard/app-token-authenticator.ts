import type { Context } from 'hono';
import { getCookie } from 'hono/cookie';
import { type Session, tokensMatch } from '../../auth/session.js';
import type { SessionStore } from '../../auth/session-store.js';
import type { User } from '../../auth/user.js';
import { OAuthError } from '../errors.js';
import type { AppTokenCookie } from './app-token.js';
import type { UserFinder } from './user-resolver.js';
import { transientToken, type VerifiedToken } from './verified-token.js';

/** A session id as the session cookie carries it; anything else never reaches the database. */
const SESSION_ID = /^[A-Za-z0-9_-]{43}$/;

export interface AppTokenAuthenticatorDeps {
  cookie: AppTokenCookie;
  users: UserFinder;
  sessions: () => SessionStore | undefined;
  sessionCookie: string;
}

/** The user the cookie authenticates and its transient token. */
export interface CookieAuthentication {
  user: User;
  token: VerifiedToken;
}

/** A refused cookie is not a refused bearer token: RFC 6750 §3.1's bare challenge. */
const refused = () => OAuthError.invalidToken({ reason: 'missing', detail: 'app_token cookie refused' });

/**
 * The app_token cookie as a credential (spec "Authentication" 5): accepted only with
 * `X-Requested-With: XMLHttpRequest` and an `X-CSRF-TOKEN` equal to the one sealed in the cookie,
 * and only while the session it was made for is alive and still that user's with that CSRF token —
 * so logout, or another user's session, ends it. The request then acts with every scope
 * (Passport's `TransientToken`). Any failure is a 401 with a bare `Bearer` challenge.
 */
export class AppTokenAuthenticator {
  constructor(private readonly deps: AppTokenAuthenticatorDeps) {}

  async authenticate(c: Context): Promise<CookieAuthentication> {
    const value = c.req.header('cookie') === undefined ? undefined : getCookie(c, this.deps.cookie.name);
    if (!value) throw OAuthError.invalidToken({ reason: 'missing' });
    const csrf = c.req.header('x-csrf-token');
    if (c.req.header('x-requested-with') !== 'XMLHttpRequest' || !csrf) throw refused();
    const claims = await this.deps.cookie.open(value);
    if (!claims || !tokensMatch(claims.csrf, csrf)) throw refused();
    const session = await this.#session(c);
    if (!session || session.userId !== claims.userId || !session.verifyCsrfToken(claims.csrf))
      throw refused();
    const started = c.get('session');
    const user =
      started?.user?.id === claims.userId ? started.user : await this.deps.users.find(claims.userId);
    if (!user) throw refused();
    return { user, token: transientToken(claims.userId, ['*']) };
  }

  /** The request's session: already started (a `web` route), or loaded from the session cookie. */
  async #session(c: Context): Promise<Session | undefined> {
    const started = c.get('session');
    if (started) return started;
    const id = getCookie(c, this.deps.sessionCookie);
    const store = this.deps.sessions();
    if (!id || !store || !SESSION_ID.test(id)) return undefined;
    return (await store.load(id))?.session;
  }
}
