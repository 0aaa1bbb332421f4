import { Registered, RegistrationWithTakenEmail } from '../auth/events.js';
import { SessionStore } from '../auth/session-store.js';
import { UserDeletionGuards } from '../auth/user-deletion-guards.js';
import { Users } from '../auth/users.js';
import type { BillableUser } from '../billing/billable-user.js';
import { Customers } from '../billing/customers/customers.js';
import { Invoices } from '../billing/invoices/invoices.js';
import { Subscriptions } from '../billing/subscriptions/subscriptions.js';
import { ConfigurationError } from '../core/errors.js';
import type { Application, ServiceProvider } from '../kernel/application.js';
import { Mailer } from '../mail/mailer.js';
import { Outbox } from '../mail/outbox.js';
import { AuthorizedApps } from '../oauth/tokens/authorized-apps.js';
import { UserRevocation } from '../oauth/tokens/user-revocation.js';
import { AuditLog } from '../observability/audit/audit-log.js';
import { RateLimits } from '../rate-limits/rate-limits.js';
import { AccountController } from './account/account-controller.js';
import { AccountSections } from './account/account-sections.js';
import { AccountSecurity } from './account/account-security.js';
import { EmailChange } from './account/email-change.js';
import { EmailChangeController } from './account/email-change-controller.js';
import { SecurityLogController } from './account/security-log-controller.js';
import { AccountTokens } from './account-tokens.js';
import { auditAccountEvents } from './audit-events.js';
import { AccountDeletion } from './deletion/account-deletion.js';
import { AccountDeletionController } from './deletion/account-deletion-controller.js';
import { AccountDeleted } from './events.js';
import { AccountExport } from './export/account-export.js';
import { accountsMigrations } from './migrations.js';
import { accountDeletedMail } from './notifications/account-deleted.js';
import { registerNotifications } from './notifications/register-notifications.js';
import { PasswordReset } from './password-reset/password-reset.js';
import { PasswordResetController } from './password-reset/password-reset-controller.js';
import { REGISTRATION_MAILED, takenEmailNotice } from './registration/taken-email-notice.js';
import { registerTwoFactor } from './two-factor/register-two-factor.js';
import { EmailVerification, verifiedAt } from './verification/email-verification.js';
import { VerificationController } from './verification/verification-controller.js';
import { ensureEmailVerified } from './verification/verified-middleware.js';

/**
 * The account half (`config.accounts`): e-mail verification (with the `verified` middleware),
 * password reset, and the notifications (docs/accounts.md, "Notifications").
 * Needs `authProvider()` and `mailProvider()`; register it after the modules whose routes it
 * guards (`oauthProvider()`, `billingProvider()`).
 */
export function accountsProvider(): ServiceProvider {
  return {
    name: 'accounts',
    migrations: [accountsMigrations],

    register(app: Application) {
      const { container, config, router, events } = app;
      if (!container.has(Mailer))
        throw new ConfigurationError('accountsProvider() needs mailProvider() registered first.');
      const settings = config.accounts.verification;
      container
        .instance(AccountTokens, new AccountTokens(app.db))
        .singleton(
          EmailVerification,
          (c) =>
            new EmailVerification(c.make(Users), c.make(AccountTokens), c.make(Mailer), app.clock, settings),
        );
      const limits = container.make(RateLimits);
      limits.define('verification.resend', settings.resend);
      router.middleware.alias('verified', () => ensureEmailVerified());
      // The seams oauth and billing declare: approving a client, subscribing.
      if (settings.required) {
        router.middleware
          .appendToGroup('oauth.approve', 'verified')
          .appendToGroup('billing.subscribe', 'verified');
      }
      events.listen(Registered, async ({ user }) => {
        if (!verifiedAt(user)) await container.make(EmailVerification).send(user);
      });
      const notice = limits.define('registration.taken-email', config.accounts.registration.takenEmailNotice);
      events.listen(RegistrationWithTakenEmail, (event) =>
        takenEmailNotice(container.make(Users), container.make(Mailer), notice)(event),
      );
      router.middleware.appendToGroup('web', async function announceSignUpMail(c, next) {
        c.set('registrationNotice', REGISTRATION_MAILED);
        await next();
      });

      router.controllers.register(VerificationController, 'Accounts/VerificationController');
      router
        .get('/email/verify', [VerificationController, 'notice'])
        .name('verification.notice')
        .middleware('web', 'auth');
      router
        .post('/email/verification-notification', [VerificationController, 'resend'])
        .name('verification.send')
        .middleware('web', 'auth', 'throttle:verification.resend');
      router
        .get('/email/verification', [VerificationController, 'show'])
        .name('verification.show')
        .middleware('web');
      router
        .post('/email/verification', [VerificationController, 'verify'])
        .name('verification.verify')
        .middleware('web');
      registerPasswordReset(app);
      registerNotifications(app);
      registerTwoFactor(app);
      registerAccountPage(app);
      registerAccountClosing(app);
      auditAccountEvents(app);
    },
  };
}

/** `request → deliver → redeem`: the forgot-password and reset pages, and the link on the login page. */
function registerPasswordReset(app: Application): void {
  const { container, config, router, logger, clock } = app;
  const settings = config.accounts.passwordReset;
  const limits = container.make(RateLimits);
  limits.define('password-reset.email', settings.email);
  limits.define('password-reset.address', settings.address);
  const oauth = app.providers.some((p) => p.name === 'oauth');
  container.singleton(
    PasswordReset,
    (c) =>
      new PasswordReset({
        db: app.db,
        users: c.make(Users),
        tokens: c.make(AccountTokens),
        mailer: c.make(Mailer),
        sessions: c.make(SessionStore),
        clock,
        logger,
        events: app.events,
        config: settings,
        revokeApplications: oauth
          ? async (userId) => {
              const apps = c.make(AuthorizedApps);
              for (const authorized of await apps.forUser(userId))
                await apps.revoke(userId, authorized.clientId);
            }
          : undefined,
      }),
  );
  router.middleware.appendToGroup('web', async function offerPasswordReset(c, next) {
    c.set('passwordResetPath', '/forgot-password');
    await next();
  });
  router.controllers.register(PasswordResetController, 'Accounts/PasswordResetController');
  router
    .get('/forgot-password', [PasswordResetController, 'request'])
    .name('password.request')
    .middleware('web');
  router.post('/forgot-password', [PasswordResetController, 'send']).name('password.email').middleware('web');
  router.get('/reset-password', [PasswordResetController, 'show']).name('password.reset').middleware('web');
  router
    .post('/reset-password', [PasswordResetController, 'reset'])
    .name('password.update')
    .middleware('web');
}

/** `/account`: change the password or e-mail address, see and end sessions. */
function registerAccountPage(app: Application): void {
  const { container, router, events, clock } = app;
  container.singleton(
    EmailChange,
    (c) =>
      new EmailChange(
        c.make(Users),
        c.make(AccountTokens),
        c.make(Mailer),
        events,
        clock,
        app.config.accounts.verification.expiresMinutes,
      ),
  );
  container.singleton(
    AccountSecurity,
    (c) => new AccountSecurity(c.make(Users), c.make(SessionStore), events, clock),
  );
  container.instance(AccountSections, new AccountSections());
  // Guesses at the current password on these forms: a few a minute per user.
  container.make(RateLimits).define('account.password', { points: 10, durationSeconds: 600 });
  router.controllers.register(AccountController, 'Accounts/AccountController');
  router.group({ prefix: '/account', middleware: ['web', 'auth'] }, (account) => {
    account.get('/', [AccountController, 'show']).name('account');
    account
      .post('/password', [AccountController, 'password'])
      .name('account.password')
      .middleware('throttle:account.password');
    account.post('/sessions/others', [AccountController, 'endOtherSessions']).name('account.sessions.others');
    if (container.has(AuditLog)) {
      router.controllers.register(SecurityLogController, 'Accounts/SecurityLogController');
      account.get('/security-log', [SecurityLogController, 'show']).name('account.security-log');
    }
    account
      .post('/email', [AccountController, 'email'])
      .name('account.email')
      .middleware('throttle:account.password');
  });
  // The link from the new address's mailbox: it may open in a browser that is not signed in.
  router.controllers.register(EmailChangeController, 'Accounts/EmailChangeController');
  router
    .get('/account/email/confirm', [EmailChangeController, 'show'])
    .name('account.email.show')
    .middleware('web');
  router
    .post('/account/email/confirm', [EmailChangeController, 'confirm'])
    .name('account.email.confirm')
    .middleware('web');
}

/** "Delete account" and "Download my data" on the account page, with what billing and OAuth add to them. */
function registerAccountClosing(app: Application): void {
  const { container, router, events, clock } = app;
  const has = (name: string) => app.providers.some((p) => p.name === name);
  container.singleton(
    AccountDeletion,
    (c) =>
      new AccountDeletion({
        db: app.db,
        users: c.make(Users),
        sessions: c.make(SessionStore),
        events,
        clock,
        guards: c.make(UserDeletionGuards),
        billing: has('billing')
          ? {
              customerOf: (user) => {
                const customerId = c.make(Customers).idOf(user);
                return customerId ? { gateway: app.config.billing.edition, customerId } : undefined;
              },
              cancelSubscriptionsNow: (userId) => c.make(Subscriptions).cancelAllNow(userId),
            }
          : undefined,
        credentials: has('oauth') ? c.make(UserRevocation) : undefined,
      }),
  );
  container.singleton(
    AccountExport,
    (c) =>
      new AccountExport({
        db: app.db,
        clock,
        invoices: has('billing')
          ? async (user) => (await c.make(Invoices).list(user as BillableUser, true)).map((i) => i.toJSON())
          : undefined,
        authorizedApps: has('oauth') ? (userId) => c.make(AuthorizedApps).forUser(userId) : undefined,
      }),
  );
  // What the outbox holds for the deleted address goes (links, notices); the goodbye stays until
  // it is sent, and then goes too (docs/accounts.md, "What is kept").
  events.listen(AccountDeleted, async ({ email }) => {
    await container.make(Outbox).forgetRecipient(email, [accountDeletedMail.name]);
  });
  router.controllers.register(AccountDeletionController, 'Accounts/AccountDeletionController');
  router.group({ prefix: '/account', middleware: ['web', 'auth'] }, (account) => {
    account
      .post('/delete', [AccountDeletionController, 'destroy'])
      .name('account.delete')
      .middleware(
        'throttle:account.password',
        `fresh-auth:${app.config.accounts.twoFactor.freshAuthSeconds}`,
      );
    account.get('/export', [AccountDeletionController, 'export']).name('account.export');
  });
}
