import { AccountSections } from '../../accounts/index.js';
import { csrfToken, LoginSteps } from '../../auth/index.js';
import type { Application } from '../../kernel/application.js';
import { AuditLog } from '../../observability/audit/audit-log.js';
import { SignInMethods } from '../sign-in-methods.js';
import { LinkedAccountsController } from './linked-accounts-controller.js';
import { LinkedIdentities } from './linked-identities.js';
import { UpstreamController } from './upstream-controller.js';
import { UpstreamLinked, UpstreamUnlinked } from './upstream-events.js';
import { LinkedAccountsSection } from './upstream-pages.js';
import { UpstreamProviders } from './upstream-providers.js';
import { UpstreamSignIn } from './upstream-sign-in.js';

/**
 * "Sign in with …" (`signin.upstream.providers`): the login page's links, the callback, the
 * account page's "Linked accounts" card, and the links as sign-in methods. Nothing without providers.
 */
export function registerUpstream(app: Application): void {
  const { container, config, router, db } = app;
  const providers = new UpstreamProviders(config.signin.upstream, config.app.url);
  if (providers.size === 0) return;
  const identities = new LinkedIdentities(db);
  container
    .instance(UpstreamProviders, providers)
    .instance(LinkedIdentities, identities)
    .singleton(UpstreamSignIn);
  container.make(SignInMethods).add(identities.method);

  const steps = container.make(LoginSteps);
  for (const { id, label } of providers.list())
    steps.offer({ label: `Sign in with ${label}`, href: `/login/${id}` });
  if (container.has(AccountSections)) {
    container
      .make(AccountSections)
      .add(async (c, user) => (
        <LinkedAccountsSection
          providers={providers.list()}
          linked={await identities.forUser(user.id)}
          csrfToken={csrfToken(c)}
        />
      ));
  }

  router.controllers
    .register(UpstreamController, 'Signin/UpstreamController')
    .register(LinkedAccountsController, 'Signin/LinkedAccountsController');
  router
    .get('/login/{provider}', [UpstreamController, 'redirect'])
    .name('login.upstream')
    .middleware('web', 'guest');
  router
    .get('/login/{provider}/callback', [UpstreamController, 'callback'])
    .name('login.upstream.callback')
    .middleware('web');
  router
    .get('/login/{provider}/link', [UpstreamController, 'confirm'])
    .name('login.upstream.confirm')
    .middleware('web', 'guest');
  router
    .post('/login/{provider}/link', [UpstreamController, 'confirmLink'])
    .name('login.upstream.link')
    .middleware('web', 'guest');
  router.group({ prefix: '/account/sign-in', middleware: ['web', 'auth'] }, (account) => {
    account.post('/{provider}/link', [UpstreamController, 'link']).name('account.upstream.link');
    account.post('/{provider}/unlink', [LinkedAccountsController, 'unlink']).name('account.upstream.unlink');
  });
  auditUpstream(app);
}

function auditUpstream(app: Application): void {
  if (!app.container.has(AuditLog)) return;
  const audit = app.container.make(AuditLog);
  app.events.listen(UpstreamLinked, ({ user, provider, via, origin, at }) => {
    audit.record({
      kind: 'sign-in.upstream-linked',
      userId: user.id,
      details: { provider, via },
      origin,
      at,
    });
  });
  app.events.listen(UpstreamUnlinked, ({ user, provider, origin, at }) => {
    audit.record({ kind: 'sign-in.upstream-unlinked', userId: user.id, details: { provider }, origin, at });
  });
}
