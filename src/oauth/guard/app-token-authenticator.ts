import type { Context } from 'hono';
import { getCookie } from 'hono/cookie';
import { type Session, tokensMatch } from '../../auth/session.js';
import type { SessionStore } from '../../auth/session-store.js';
import type { UserRow } from '../../auth/tables.js';
import type { User } from '../../auth/user.js';
import type { Users } from '../../auth/users.js';
import type { AppTokenCookie } from './app-token.js';
import { unauthenticated } from './challenge.js';
import { transientToken, type VerifiedToken } from './verified-token.js';

/** A session id as the session cookie carries it; anything else never reaches the database. */
const SESSION_ID = /^[A-Za-z0-9_-]{43}$/;

export interface AppTokenAuthenticatorDeps {
  cookie: AppTokenCookie;
  users: Users;
  sessions: () => SessionStore | undefined;
  sessionCookie: string;
  loadUser: (id: number) => Promise<UserRow | undefined>;
}

/** The user (already a model when the session had one) or the row to hydrate, and the transient token. */
export type CookieAuthentication =
  | { user: User; row?: undefined; token: VerifiedToken }
  | { user?: undefined; row: UserRow; token: VerifiedToken };

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
    if (!value) throw unauthenticated('missing');
    const csrf = c.req.header('x-csrf-token');
    if (c.req.header('x-requested-with') !== 'XMLHttpRequest' || !csrf) throw unauthenticated('cookie');
    const claims = await this.deps.cookie.open(value);
    if (!claims || !tokensMatch(claims.csrf, csrf)) throw unauthenticated('cookie');
    const live = await this.#session(c);
    if (!live || live.session.userId !== claims.userId || !live.session.verifyCsrfToken(claims.csrf))
      throw unauthenticated('cookie');
    const token = transientToken(claims.userId, ['*']);
    if (live.user) return { user: live.user, token };
    const row = await this.deps.loadUser(claims.userId);
    if (!row) throw unauthenticated('cookie');
    return { row, token };
  }

  /** The request's session: already started (a `web` route), or loaded from the session cookie. */
  async #session(c: Context): Promise<{ session: Session; user: User | undefined } | undefined> {
    const started = c.get('session');
    if (started) return { session: started, user: started.user };
    const id = getCookie(c, this.deps.sessionCookie);
    const store = this.deps.sessions();
    if (!id || !store || !SESSION_ID.test(id)) return undefined;
    const loaded = await store.load(id);
    if (!loaded) return undefined;
    return { session: loaded.session, user: loaded.user && this.deps.users.hydrate(loaded.user) };
  }
}
