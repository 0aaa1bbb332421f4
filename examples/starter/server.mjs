// A complete Tollgate service in one file: users with login pages and an account page (e-mail
// verification, password reset, sessions), an OAuth 2.0 server with a protected API and scopes,
// personal access tokens, and subscription billing on the embedded Stripe sandbox (no account
// needed). Install both packages (`npm install tollgate @tollgate/sandbox`; the sandbox is optional
// once STRIPE_SECRET is set), run `node server.mjs`, then open http://127.0.0.1:4000.
import { pathToFileURL } from 'node:url';
import {
  Application,
  accountsProvider,
  authProvider,
  Billable,
  billingProvider,
  closeOnSignals,
  configFromEnv,
  csrfToken,
  currentUser,
  defineConfig,
  HasApiTokens,
  installOAuth,
  listen,
  loadEnvFile,
  mailProvider,
  oauthProvider,
  StripeWebhookController,
  User,
  UserModelKey,
} from 'tollgate';
import { html, renderPage } from 'tollgate/views';

// 1. Configuration: your settings, then the environment (PORT, DATABASE_URL, STRIPE_SECRET,
// MAIL_URL, …). With no MAIL_URL, mail waits in the outbox: read it at /dev/mail.
const settings = {
  app: { name: 'Starter', url: 'http://127.0.0.1:4000' },
  http: { port: 4000 },
  oauth: {
    scopes: {
      'read-orders': 'Read your orders',
      'place-orders': 'Place orders for you',
    },
  },
  billing: {
    plans: [{ id: 'pro-monthly', name: 'Pro', amount: 1900, interval: 'month' }],
  },
};

// 2. The user model: personal access tokens (HasApiTokens) and subscription billing (Billable).
class Customer extends Billable(HasApiTokens(User)) {}

// 3. Your routes, in a service provider.
const routes = {
  name: 'starter.routes',
  register({ router }) {
    // The API, behind an access token; each route may also require scopes.
    router.group({ prefix: '/api', middleware: ['api', 'auth:api'] }, (api) => {
      api.get('/me', async (c) => {
        const user = currentUser(c);
        return c.json({ id: user.id, email: user.email, subscribed: await user.subscribed('main') });
      });
      api
        .get('/orders', (c) => c.json({ data: [{ id: 1, item: 'Tea', status: 'shipped' }] }))
        .middleware('scopes:read-orders');
      api
        .post('/orders', (c) => c.json({ data: { id: 2, status: 'placed' } }, 201))
        .middleware('scopes:place-orders');
    });

    // Pages for signed-in users (the `web` group: session and CSRF).
    router.get('/', (c) => c.redirect('/dashboard'));
    router
      .get('/dashboard', (c) => dashboard(c))
      .name('dashboard')
      .middleware('web', 'auth');
    router
      .post('/subscribe', async (c) => {
        await currentUser(c).newSubscription('main', 'pro-monthly').create('tok_visa');
        return c.redirect('/dashboard');
      })
      .middleware('web', 'auth');
    router
      .post('/tokens', async (c) => {
        const { accessToken } = await currentUser(c).createToken('starter', ['read-orders']);
        return dashboard(c, accessToken);
      })
      .middleware('web', 'auth');

    // The billing provider calls this; outside the `web` group, its signature is checked instead.
    router.post('/stripe/webhook', [StripeWebhookController, 'handle']);
  },
};

async function dashboard(c, newToken) {
  const user = currentUser(c);
  const form = (action, label) =>
    html`<form method="post" action="${action}"><input type="hidden" name="_token" value="${csrfToken(c)}"><button>${label}</button></form>`;
  return renderPage(
    c,
    { title: 'Dashboard' },
    html`<div class="card">
      <h1>Hello, ${user.name}</h1>
      ${(await user.subscribed('main')) ? html`<p>You are subscribed to <strong>Pro</strong>.</p>` : form('/subscribe', 'Subscribe to Pro ($19/month, test card)')}
      ${form('/tokens', 'Create a personal access token')}
      <p><a href="/account">Your account</a>: password, e-mail address, sessions.</p>
      ${newToken ? html`<p>Your token, shown once:</p><pre>${newToken}</pre>` : ''}
    </div>`,
  );
}

/** The application, unbooted. `tollgate` commands (migrate, client, token:create, …) call it too. */
export async function createApp(overrides = {}, options = {}) {
  const app = await Application.create(defineConfig(settings, configFromEnv(), overrides), options);
  app.container.instance(UserModelKey, Customer);
  await app.register(authProvider());
  await app.register(mailProvider());
  await app.register(oauthProvider());
  await app.register(billingProvider());
  await app.register(routes);
  // Sign-up by a mailed link, password reset, the account page (docs/accounts.md).
  await app.register(accountsProvider());
  // Organizations with members, roles and invitations (docs/organizations.md): import it, uncomment.
  // await app.register(organizationsProvider());
  return app;
}

// 4. Start: read .env (as the `tollgate` command does), migrate, create the signing keys and a
// personal access client once, listen.
if (import.meta.url === pathToFileURL(process.argv[1]).href) {
  loadEnvFile();
  const app = await createApp();
  await app.migrate();
  await installOAuth(app, { passwordClient: false });
  await app.boot();
  const server = await listen(app, app.config.http.host, app.config.http.port);
  closeOnSignals(app, server);
  console.log(`Listening on ${server.url}`);
}
