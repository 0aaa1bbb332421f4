import type { MiddlewareHandler } from 'hono';
import { deleteCookie, getCookie, setCookie } from 'hono/cookie';
import type { TollgateConfig } from '../core/config.js';
import { clientAddress } from '../rate-limits/http.js';
import { Session } from './session.js';
import type { SessionStore } from './session-store.js';
import type { Users } from './users.js';

/** A cookie value that could be one of our ids (43 base64url characters); others never reach the database. */
const ID_SHAPE = /^[A-Za-z0-9_-]{43}$/;

export interface SessionCookieOptions {
  name: string;
  secure: boolean;
  maxAgeSeconds: number;
}

/** The session cookie's attributes from the configuration: Secure when the app URL is https. */
export function sessionCookieOptions(config: TollgateConfig): SessionCookieOptions {
  return {
    name: config.session.cookie,
    secure: new URL(config.app.url).protocol === 'https:',
    maxAgeSeconds: config.session.lifetimeMinutes * 60,
  };
}

/**
 * Loads the visitor's session (or begins a new one), hydrates its user, runs the handler, then
 * stores the session only if it changed — a new session only once its CSRF token was handed out
 * or something was put in it, so API clients and crawlers create no rows.
 */
export function startSession(deps: {
  store: SessionStore;
  users: Users;
  cookie: SessionCookieOptions;
}): MiddlewareHandler {
  const { store, users, cookie } = deps;
  const attributes = {
    path: '/',
    httpOnly: true,
    sameSite: 'Lax',
    secure: cookie.secure,
    maxAge: cookie.maxAgeSeconds,
  } as const;

  return async function startSession(c, next) {
    // Already started (a route listed both `web` and `session`).
    if (c.get('session')) return next();
    const presented = getCookie(c, cookie.name);
    const loaded = presented && ID_SHAPE.test(presented) ? await store.load(presented) : undefined;
    const session = loaded?.session ?? new Session();
    if (loaded) {
      session.ageFlashData();
      if (store.needsTouch(session)) session.dirty = true;
      if (loaded.user) session.user = users.hydrate(loaded.user);
    }
    session.device = {
      ipAddress: clientAddress().slice(0, 64) || null,
      userAgent: c.req.header('user-agent')?.slice(0, 512) || null,
    };
    c.set('session', session);
    c.set('user', session.user);
    if (session.user) c.set('guard', 'web');

    await next();

    if (session.mustSave && (await store.save(session))) {
      setCookie(c, cookie.name, session.id, attributes);
    } else if (presented !== undefined && session.storedHash === undefined) {
      // The presented cookie names no live session (expired, unknown, or just logged out): drop it.
      deleteCookie(c, cookie.name, { path: '/', secure: cookie.secure });
    }
  };
}
