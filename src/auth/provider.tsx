import type { Context } from 'hono';
import { secureHeaders } from 'hono/secure-headers';
import type { Application, ServiceProvider } from '../foundation/application.js';
import { renderPage, shareAppName } from '../views/render.js';
import { stylesheet, stylesheetVersion } from '../views/stylesheet.js';
import { authenticate, redirectIfAuthenticated } from './authenticate.js';
import { authControllers } from './controllers.js';
import { CsrfExceptions, verifyCsrf } from './csrf.js';
import { Guards, sessionGuard } from './guards.js';
import { SessionStore } from './session-store.js';
import { sessionCookieOptions, startSession } from './start-session.js';
import { Users } from './users.js';

export interface AuthOptions {
  /** Where users land after login or registration, and where `guest` sends signed-in users. */
  home?: string;
  /** Serve `GET/POST /register` (default true). */
  registration?: boolean;
  /** Failed logins allowed per e-mail + IP per minute (default 5). */
  maxLoginAttempts?: number;
  /**
   * Register a minimal `/dashboard` page when, at boot, no route is named `dashboard` or has that
   * path (default true). Declare your own dashboard in a provider's `register()` to replace it.
   */
  dashboardPlaceholder?: boolean;
}

/**
 * Sessions, CSRF protection, the `auth`/`guest` middleware and the login, logout and registration
 * pages. Adds to the `web` middleware group: the app name for views, security headers,
 * `startSession()` and `verifyCsrf()`, in that order.
 */
export function authProvider(options: AuthOptions = {}): ServiceProvider {
  const home = options.home ?? '/dashboard';
  const registration = options.registration ?? true;

  return {
    name: 'auth',

    register(app: Application) {
      const { router, config, container } = app;
      container.singleton(SessionStore);
      if (!container.has(Users)) container.singleton(Users);
      const guards = Guards.of(app);
      if (!guards.has('web')) guards.define('web', sessionGuard);
      const exceptions = CsrfExceptions.of(app).add(...config.csrf.except);

      const session = startSession({
        store: container.make(SessionStore),
        users: container.make(Users),
        cookie: sessionCookieOptions(config),
      });
      const csrf = verifyCsrf(exceptions);
      router.middleware
        .appendToGroup('web', shareAppName(config.app.name), pageHeaders(), session, csrf)
        .alias('session', () => session)
        .alias('csrf', () => csrf)
        .alias('auth', (...names) => authenticate(guards, names))
        .alias('guest', (...names) => redirectIfAuthenticated(guards, names, home));

      const actions = authControllers(container.make(Users), app.clock, {
        appUrl: config.app.url,
        home,
        registration,
        maxLoginAttempts: options.maxLoginAttempts ?? 5,
      });
      router.get('/assets/app.css', serveStylesheet).name('assets.css');
      router.get('/login', actions.showLogin).name('login').middleware('web', 'guest');
      router.post('/login', actions.login).name('login.attempt').middleware('web', 'guest');
      router.post('/logout', actions.logout).name('logout').middleware('web', 'auth');
      if (registration) {
        router.get('/register', actions.showRegister).name('register').middleware('web', 'guest');
        router.post('/register', actions.register).name('register.store').middleware('web', 'guest');
      }
    },

    boot(app: Application) {
      if (options.dashboardPlaceholder === false) return;
      const taken = app.router.routes.some((r) => r.routeName === 'dashboard' || r.path === '/dashboard');
      if (!taken) app.router.get('/dashboard', dashboard).name('dashboard').middleware('web', 'auth');
    },
  };
}

/** `hono/secure-headers` with framing refused outright (clickjacking on the login and approval forms). */
function pageHeaders() {
  return secureHeaders({ xFrameOptions: 'DENY' });
}

const etag = `"${stylesheetVersion}"`;

function serveStylesheet(c: Context): Response {
  const headers = {
    'Content-Type': 'text/css; charset=utf-8',
    ETag: etag,
    // Pages link `?v=<hash>`, so a versioned URL never changes content.
    'Cache-Control': c.req.query('v') ? 'public, max-age=31536000, immutable' : 'public, max-age=300',
  };
  if (c.req.header('if-none-match') === etag) return c.body(null, 304, headers);
  return c.body(stylesheet, 200, headers);
}

function dashboard(c: Context) {
  const user = c.get('user');
  return renderPage(
    c,
    { title: 'Dashboard' },
    <div class="card">
      <h1>Dashboard</h1>
      <p>
        You are logged in as <strong>{user?.name}</strong> ({user?.email}).
      </p>
    </div>,
  );
}
