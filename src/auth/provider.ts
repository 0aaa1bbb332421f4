import { secureHeaders } from 'hono/secure-headers';
import { ConfigurationError } from '../core/errors.js';
import type { Application, ServiceProvider } from '../kernel/application.js';
import { clientAddress } from '../rate-limits/http.js';
import { throttle } from '../rate-limits/middleware.js';
import { RateLimits } from '../rate-limits/rate-limits.js';
import { layoutErrorPage } from '../views/error-page.js';
import { FaviconController } from '../views/favicon.js';
import { shareAppName } from '../views/render.js';
import { StylesheetController } from '../views/stylesheet-controller.js';
import { auditAuthEvents } from './audit-events.js';
import { authenticate, redirectIfAuthenticated } from './authenticate.js';
import { DashboardPlaceholderController } from './controllers/dashboard-controller.js';
import { LoginController } from './controllers/login-controller.js';
import { RegisterController } from './controllers/register-controller.js';
import { CsrfExceptions, verifyCsrf } from './csrf.js';
import { requireFreshAuth } from './fresh-auth.js';
import { Guards, sessionGuard } from './guards.js';
import { LoginThrottle } from './login-throttle.js';
import { authMigrations, usersTableMigrations } from './migrations.js';
import { type AuthOptions, AuthOptionsKey, resolveAuthOptions } from './options.js';
import { LoginSteps } from './second-factor.js';
import { SessionStore } from './session-store.js';
import { sessionCookieOptions, startSession } from './start-session.js';
import { UserDeletionGuards } from './user-deletion-guards.js';
import { bindUsers, Users } from './users.js';

/**
 * Sessions, CSRF protection, the `auth`/`guest` middleware and the login, logout and registration
 * pages. Appends to the `web` middleware group: the app name for views, security headers,
 * `startSession()` and `verifyCsrf()`, in that order.
 */
export function authProvider(input: AuthOptions = {}): ServiceProvider {
  const options = resolveAuthOptions(input);

  return {
    name: 'auth',
    migrations: input.users ? [authMigrations] : [usersTableMigrations, authMigrations],

    register(app: Application) {
      const { router, config, container } = app;
      container
        .instance(AuthOptionsKey, options)
        .singleton(SessionStore)
        .singleton(LoginThrottle)
        .singleton(LoginSteps)
        .singleton(UserDeletionGuards);
      const limits = container.make(RateLimits);
      limits.define('login.account', config.throttle.login.account);
      limits.define('login.address', config.throttle.login.address);
      limits.define('registration.address', config.throttle.registration.address);
      bindUsers(container, input.users);
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
        .alias('guest', (...names) => redirectIfAuthenticated(guards, names, options.home))
        // `fresh-auth:600`: signed in at most 600 seconds ago, else through the login page again.
        .alias('fresh-auth', (seconds = '600') =>
          requireFreshAuth(freshAuthSeconds(seconds), app.clock, config.app.url),
        )
        // `throttle:<limit name>`: per signed-in user, else per client address.
        .alias('throttle', (name = '') =>
          throttle(limits.get(name), (c) => {
            const user = c.get('user');
            return user ? `user:${user.id}` : `address:${clientAddress()}`;
          }),
        );

      // Registered controllers keep these routes cacheable (`tollgate route:cache`).
      router.controllers.registerMany({
        'Auth/LoginController': LoginController,
        'Auth/RegisterController': RegisterController,
        'Auth/DashboardPlaceholderController': DashboardPlaceholderController,
        'Assets/StylesheetController': StylesheetController,
        'Assets/FaviconController': FaviconController,
      });
      router.errorPage = layoutErrorPage(config.app.name);
      router.get('/assets/app.css', [StylesheetController, 'show']).name('assets.css');
      router.get('/favicon.svg', [FaviconController, 'show']).name('assets.favicon');
      router.get('/favicon.ico', [FaviconController, 'show']).name('assets.favicon.ico');
      router.get('/login', [LoginController, 'show']).name('login').middleware('web', 'guest');
      router.post('/login', [LoginController, 'store']).name('login.attempt').middleware('web', 'guest');
      router.post('/logout', [LoginController, 'destroy']).name('logout').middleware('web', 'auth');
      if (options.registration) {
        router.get('/register', [RegisterController, 'show']).name('register').middleware('web', 'guest');
        router
          .post('/register', [RegisterController, 'store'])
          .name('register.store')
          .middleware('web', 'guest');
      }
      auditAuthEvents(app);
    },

    boot(app: Application) {
      if (!options.dashboardPlaceholder) return;
      const taken = app.router.routes.some((r) => r.routeName === 'dashboard' || r.path === '/dashboard');
      if (!taken) {
        app.router
          .get('/dashboard', [DashboardPlaceholderController, 'show'])
          .name('dashboard')
          .middleware('web', 'auth');
      }
    },
  };
}

function freshAuthSeconds(value: string): number {
  const seconds = Number(value);
  if (!Number.isInteger(seconds) || seconds <= 0)
    throw new ConfigurationError(
      `fresh-auth:${value}: give the most seconds since the sign-in, like fresh-auth:600.`,
    );
  return seconds;
}

/** `hono/secure-headers` with framing refused outright (clickjacking on the login and approval forms). */
function pageHeaders() {
  return secureHeaders({ xFrameOptions: 'DENY' });
}
