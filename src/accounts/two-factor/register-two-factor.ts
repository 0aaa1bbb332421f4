import { LoginSteps } from '../../auth/second-factor.js';
import { AppEncryptionKey } from '../../kernel/app-key.js';
import type { Application } from '../../kernel/application.js';
import { RateLimits } from '../../rate-limits/rate-limits.js';
import { TwoFactorChallengeController } from './challenge-controller.js';
import { requireTwoFactor } from './require-two-factor.js';
import { TwoFactor } from './two-factor.js';
import { TwoFactorController } from './two-factor-controller.js';

/**
 * The authenticator app: the account page's forms (turning it off and new recovery codes behind
 * `fresh-auth`), and the login's second step for users who turned it on.
 */
export function registerTwoFactor(app: Application): void {
  const { container, config, router, events, clock } = app;
  const settings = config.accounts.twoFactor;
  const twoFactor = new TwoFactor(app.db, container.make(AppEncryptionKey), clock, events, {
    issuer: config.app.name,
    lockAfter: settings.lockAfter,
    lockMinutes: settings.lockMinutes,
    requiredForAll: settings.required === 'all',
  });
  container.instance(TwoFactor, twoFactor);
  container.make(RateLimits).define('two-factor.account', settings.throttle);
  const enforce = requireTwoFactor(twoFactor);
  router.middleware.appendToGroup('web', function requireTwoFactorWhenAsked(c, next) {
    // `requireWhen` may be set after registration: decided per request, free when nobody must.
    return twoFactor.mayBeRequired ? enforce(c, next) : next();
  });
  container.make(LoginSteps).useSecondFactor({
    path: '/login/two-factor',
    requires: (user) => twoFactor.enabled(user.id),
  });

  router.controllers.register(TwoFactorChallengeController, 'Accounts/TwoFactorChallengeController');
  router
    .get('/login/two-factor', [TwoFactorChallengeController, 'show'])
    .name('login.two-factor')
    .middleware('web', 'guest');
  router
    .post('/login/two-factor', [TwoFactorChallengeController, 'verify'])
    .name('login.two-factor.verify')
    .middleware('web', 'guest');

  const fresh = `fresh-auth:${settings.freshAuthSeconds}`;
  router.controllers.register(TwoFactorController, 'Accounts/TwoFactorController');
  router.group({ prefix: '/account/two-factor', middleware: ['web', 'auth'] }, (routes) => {
    routes.post('/', [TwoFactorController, 'begin']).name('account.two-factor');
    routes.get('/setup', [TwoFactorController, 'setup']).name('account.two-factor.setup');
    routes
      .post('/confirm', [TwoFactorController, 'confirm'])
      .name('account.two-factor.confirm')
      .middleware('throttle:account.password');
    routes
      .post('/recovery-codes', [TwoFactorController, 'regenerate'])
      .name('account.two-factor.recovery-codes')
      .middleware(fresh);
    routes
      .post('/disable', [TwoFactorController, 'disable'])
      .name('account.two-factor.disable')
      .middleware(fresh);
  });
}
