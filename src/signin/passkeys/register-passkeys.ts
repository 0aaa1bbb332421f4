import { AccountSections, Notifications } from '../../accounts/index.js';
import { csrfToken, LoginSteps } from '../../auth/index.js';
import { AppEncryptionKey } from '../../kernel/app-key.js';
import type { Application } from '../../kernel/application.js';
import { AuditLog } from '../../observability/audit/audit-log.js';
import { RateLimits } from '../../rate-limits/rate-limits.js';
import { PasskeyRefused, PasskeyRenamed, SignInMethodAdded, SignInMethodRemoved } from '../events.js';
import { signInMethodAddedNotification, signInMethodRemovedNotification } from '../method-notices.js';
import { SignInMethods } from '../sign-in-methods.js';
import { PasskeyAccountController } from './passkey-account-controller.js';
import { PasskeyLoginController } from './passkey-login-controller.js';
import { PASSKEY_SCRIPTS, PasskeyLoginSection, PasskeysSection } from './passkey-pages.js';
import { PasskeyScriptController } from './passkey-script-controller.js';
import { Passkeys } from './passkeys.js';
import { relyingParty } from './relying-party.js';

/**
 * Passkeys: the login page's button and autofill, the second step after the password for a user
 * with one, the account page's card and "Add a passkey" page (behind `fresh-auth`), their scripts,
 * notices and audit events; and their place among the user's sign-in methods.
 */
export function registerPasskeys(app: Application): void {
  const { container, router, events, config } = app;
  const methods = container.make(SignInMethods);
  const passkeys = new Passkeys(
    app.db as never,
    app.clock,
    relyingParty(config),
    container.make(AppEncryptionKey),
    methods,
  );
  container.instance(Passkeys, passkeys);
  methods.add({
    kind: 'passkey',
    count: async (db, userId) => {
      const row = await db
        .selectFrom('signin_passkeys')
        .select((eb) => eb.fn.countAll<number | string>().as('n'))
        .where('user_id', '=', userId)
        .executeTakeFirst();
      return Number(row?.n ?? 0);
    },
  });

  const steps = container.make(LoginSteps);
  // A passkey is the stronger second factor (it cannot be phished): offered before a code.
  steps.useSecondFactor(
    { path: '/login/passkey', label: 'Use your passkey', requires: (user) => passkeys.has(user.id) },
    { first: true },
  );
  steps.addToLoginPage({ section: PasskeyLoginSection, scripts: PASSKEY_SCRIPTS, autocomplete: 'webauthn' });
  container
    .make(AccountSections)
    .add(async (c, user) =>
      PasskeysSection({ passkeys: await passkeys.list(user.id), csrfToken: csrfToken(c) }),
    );
  container
    .make(Notifications)
    .register(signInMethodAddedNotification, events)
    .register(signInMethodRemovedNotification, events);
  if (container.has(AuditLog)) auditPasskeys(app, container.make(AuditLog));

  router.controllers.register(PasskeyScriptController, 'Signin/PasskeyScriptController');
  router
    .get('/signin/passkeys/webauthn.js', [PasskeyScriptController, 'webauthn'])
    .name('passkeys.webauthn-script');
  router.get('/signin/passkeys/passkeys.js', [PasskeyScriptController, 'passkeys']).name('passkeys.script');

  container
    .make(RateLimits)
    .define('passkey.sign-in', { points: 20, durationSeconds: 60, maxBlockSeconds: 900 });
  router.controllers
    .register(PasskeyLoginController, 'Signin/PasskeyLoginController')
    .register(PasskeyAccountController, 'Signin/PasskeyAccountController');
  router.group({ prefix: '/login/passkey', middleware: ['web', 'guest'] }, (login) => {
    login.get('/', [PasskeyLoginController, 'step']).name('login.passkey');
    login
      .post('/options', [PasskeyLoginController, 'challenge'])
      .name('login.passkey.options')
      .middleware('throttle:passkey.sign-in');
    login
      .post('/', [PasskeyLoginController, 'verify'])
      .name('login.passkey.verify')
      .middleware('throttle:passkey.sign-in');
  });
  const fresh = `fresh-auth:${config.accounts.twoFactor.freshAuthSeconds}`;
  router.group({ prefix: '/account/passkeys', middleware: ['web', 'auth'] }, (account) => {
    account.get('/new', [PasskeyAccountController, 'create']).name('account.passkeys.new').middleware(fresh);
    account
      .post('/options', [PasskeyAccountController, 'challenge'])
      .name('account.passkeys.options')
      .middleware(fresh);
    account.post('/', [PasskeyAccountController, 'store']).name('account.passkeys.store').middleware(fresh);
    account.post('/:id/rename', [PasskeyAccountController, 'rename']).name('account.passkeys.rename');
    account.post('/:id/delete', [PasskeyAccountController, 'destroy']).name('account.passkeys.destroy');
  });
}

function auditPasskeys(app: Application, audit: AuditLog): void {
  app.events.listen(SignInMethodAdded, ({ user, method, label, origin, at }) => {
    audit.record({
      kind: 'sign-in-method.added',
      userId: user.id,
      details: { method, name: label },
      origin,
      at,
    });
  });
  app.events.listen(SignInMethodRemoved, ({ user, method, label, origin, at }) => {
    audit.record({
      kind: 'sign-in-method.removed',
      userId: user.id,
      details: { method, name: label },
      origin,
      at,
    });
  });
  app.events.listen(PasskeyRenamed, ({ user, from, to, origin, at }) => {
    audit.record({ kind: 'passkey.renamed', userId: user.id, details: { from, to }, origin, at });
  });
  app.events.listen(PasskeyRefused, ({ userId, reason, origin, at }) => {
    audit.record({
      kind: 'passkey.refused',
      ...(userId === null ? {} : { userId }),
      actor: 'anonymous',
      details: { reason },
      origin,
      at,
    });
  });
}
