import type { Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AppUser } from '../../app/user.js';
import { AccountDeleted } from '../../src/accounts/events.js';
import { verifyEmailMail } from '../../src/accounts/index.js';
import { Users } from '../../src/auth/users.js';
import { PaymentGatewayKey } from '../../src/billing/gateway/payment-gateway.js';
import { Invoices } from '../../src/billing/invoices/invoices.js';
import { Mailer } from '../../src/mail/mailer.js';
import { Outbox } from '../../src/mail/outbox.js';
import { ApiKeys } from '../../src/oauth/api-keys/api-keys.js';
import { Clients } from '../../src/oauth/clients/clients.js';
import { Browser, tokenIn } from '../auth/browser.js';
import { pdfText } from '../billing/contract/money.js';
import { browserOn, type ReferenceServer, startReferenceServer } from '../browser/server.js';
import { acrossEngines, ENGINES } from '../support/engines.js';
import { type Mailbox, startMailbox } from '../support/mailbox.js';
import { type AccountsTestApp, accountsApp } from './support.js';

const PASSWORD = 'correct horse battery';
const EDITIONS = [
  { edition: 'stripe', token: 'tok_visa' },
  { edition: 'braintree', token: 'fake-valid-nonce' },
] as const;

for (const { edition, token, engine } of acrossEngines(EDITIONS)) {
  // The reference service over a real socket, its embedded sandbox as the provider, mail to a real
  // SMTP server: deleting an account from the account page.
  describe(`deleting an account (${edition}, ${engine})`, () => {
    let server: ReferenceServer;
    let mailbox: Mailbox;
    let n = 0;
    const deleted: AccountDeleted[] = [];
    const cancelledAtProvider: string[] = [];

    beforeAll(async () => {
      mailbox = await startMailbox();
      server = await startReferenceServer(
        {
          billing: { edition },
          mail: { url: mailbox.url, worker: { pollMs: 100 } },
        },
        { engine },
      );
      server.app.events.listen(AccountDeleted, (e) => void deleted.push(e));
      // Counts what reaches the provider, and lets it through.
      const gateway = server.app.container.make(PaymentGatewayKey);
      const cancel = gateway.cancelSubscription.bind(gateway);
      gateway.cancelSubscription = (id, options) => {
        cancelledAtProvider.push(id);
        return cancel(id, options);
      };
    }, 60_000);
    afterAll(async () => {
      await server?.stop();
      await mailbox?.close();
    });

    const browser = () => browserOn(server);
    const bearer = (credential: string) =>
      fetch(new URL('/api/user', server.url), { headers: { authorization: `Bearer ${credential}` } });

    /** A subscribed user with a personal access token, an API key and an OAuth client, signed in twice. */
    async function customer() {
      const email = `leaving${++n}@example.com`;
      const users = server.app.container.make(Users);
      const user = await users.create<AppUser>({ name: 'Leaving Lee', email, password: PASSWORD });
      await user.newSubscription('main', 'basic-monthly').create(token);
      const subscription = (await user.subscription('main'))!;
      const { accessToken } = await user.createToken('CLI');
      const { plainKey } = await server.app.container.make(ApiKeys).create(user.id, { name: 'CI' });
      const { client, plainSecret } = await server.app.container
        .make(Clients)
        .create({ name: 'My app', redirect: 'http://127.0.0.1/cb', userId: user.id });
      const laptop = browser();
      const phone = browser();
      for (const device of [laptop, phone])
        expect((await device.submit('/login', { email, password: PASSWORD })).status).toBe(302);
      return { user, email, subscription, accessToken, plainKey, client, plainSecret, laptop, phone };
    }

    const deleteForm = async (device: Browser, password: string, headers: Record<string, string> = {}) => {
      const page = await (await device.get('/account')).text();
      return device.post('/account/delete', { _token: tokenIn(page), current_password: password }, headers);
    };
    const goodbyes = async (email: string) => {
      await server.app.container.make(Mailer).drain();
      return mailbox.to(email).filter((m) => m.subject?.includes('account was deleted'));
    };

    it('refuses a wrong password with 422 on the page and deletes nothing', async () => {
      const c = await customer();
      const res = await deleteForm(c.laptop, 'not my password');
      expect(res.status).toBe(422);
      expect(await res.text()).toContain('The current password is incorrect.');
      const json = await deleteForm(c.laptop, 'not my password', { accept: 'application/json' });
      expect(json.status).toBe(422);
      expect(await json.json()).toEqual({
        message: 'The current password is incorrect.',
        errors: { current_password: ['The current password is incorrect.'] },
      });

      expect(await server.app.container.make(Users).find(c.user.id)).toBeDefined();
      expect((await c.user.subscription('main'))!.active()).toBe(true);
      expect((await bearer(c.accessToken)).status).toBe(200);
      expect((await bearer(c.plainKey)).status).toBe(200);
      expect((await c.phone.get('/account')).status).toBe(200);
      expect(deleted.filter((e) => e.userId === c.user.id)).toEqual([]);
    });

    it('three submits at once (a double click, a second device): one deletion, one cancellation at the provider, one mail; every credential and session ends', async () => {
      const c = await customer();
      const invoice = (await c.user.invoices())[0]!;
      expect(invoice).toBeDefined();
      const before = cancelledAtProvider.length;

      const form = async (device: Browser) => ({
        _token: tokenIn(await (await device.get('/account')).text()),
        current_password: PASSWORD,
      });
      const [laptopForm, phoneForm] = [await form(c.laptop), await form(c.phone)];
      // A double click on the laptop, and the phone deleting at the same moment.
      const answers = await Promise.all([
        c.laptop.post('/account/delete', laptopForm),
        c.laptop.post('/account/delete', laptopForm),
        c.phone.post('/account/delete', phoneForm),
      ]);
      for (const res of answers) {
        expect(res.status).toBe(303);
        expect(res.headers.get('location')).toBe('/login');
      }
      const login = await (await c.laptop.get('/login')).text();
      expect(login).toContain('Your account has been deleted.');

      expect(await server.app.container.make(Users).find(c.user.id)).toBeUndefined();
      expect(deleted.filter((e) => e.userId === c.user.id)).toHaveLength(1);
      expect(cancelledAtProvider.slice(before)).toEqual([c.subscription.providerId]);
      const remote = await server.app.container
        .make(PaymentGatewayKey)
        .findSubscription(c.subscription.providerId);
      expect(remote?.status).toBe('canceled');

      expect((await bearer(c.accessToken)).status).toBe(401);
      expect((await bearer(c.plainKey)).status).toBe(401);
      expect(await server.app.container.make(Clients).find(c.client.id)).toBeUndefined();
      const clientToken = await fetch(new URL('/oauth/token', server.url), {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({
          grant_type: 'client_credentials',
          client_id: c.client.id,
          client_secret: c.plainSecret!,
        }),
      });
      expect(clientToken.status).toBe(401);
      const phone = await c.phone.get('/account');
      expect(phone.status).toBe(302);
      expect(phone.headers.get('location')).toContain('/login');

      expect(await goodbyes(c.email)).toHaveLength(1);
      await new Promise((r) => setTimeout(r, 300));
      expect(await goodbyes(c.email)).toHaveLength(1);

      // No table keeps a row of the user but the deletion record, which notices were sent, and the
      // audit log (its history outlives the account, when it records).
      const left: string[] = [];
      for (const table of await server.app.db.introspection.getTables()) {
        const column = table.columns.find((col) => col.name === 'user_id');
        if (!column) continue;
        const id = /char|text/i.test(column.dataType) ? String(c.user.id) : c.user.id;
        const rows = await (server.app.db as unknown as Kysely<Record<string, { user_id: unknown }>>)
          .selectFrom(table.name)
          .select('user_id')
          .where('user_id', '=', id)
          .execute();
        if (rows.length > 0) left.push(table.name);
      }
      expect(left.filter((t) => t !== 'audit_events').sort()).toEqual([
        'account_deletions',
        'account_notifications',
      ]);

      // What is kept: the customer id the invoices are filed under, nothing personal.
      const kept = await server.app.db
        .selectFrom('account_deletions')
        .selectAll()
        .where('user_id', '=', c.user.id)
        .executeTakeFirstOrThrow();
      expect(kept).toMatchObject({
        billing_gateway: edition,
        billing_customer_id: c.user[customerColumn(edition)],
      });
      expect(JSON.stringify(kept)).not.toContain(c.email);
      const pdf = await server.app.container
        .make(Invoices)
        .downloadForCustomer(kept.billing_customer_id!, invoice.id);
      expect(pdf.headers.get('content-type')).toBe('application/pdf');
      expect(pdfText(Buffer.from(await pdf.arrayBuffer()))).toContain(invoice.total());
    });

    it('JSON: 200 { message }, and the session ends', async () => {
      const c = await customer();
      const res = await deleteForm(c.laptop, PASSWORD, { accept: 'application/json' });
      expect(res.status).toBe(200);
      expect(await res.json()).toEqual({
        message: 'Your account has been deleted. We sent a last mail to confirm it.',
      });
      expect((await c.laptop.get('/account')).status).toBe(302);
      expect(await goodbyes(c.email)).toHaveLength(1);
    });
  });
}

function customerColumn(edition: 'stripe' | 'braintree'): 'stripe_id' | 'braintree_id' {
  return edition === 'stripe' ? 'stripe_id' : 'braintree_id';
}

// The accounts module without billing: nothing to cancel, the rest the same; and a sign-in too old.
describe.each(ENGINES)('deleting an account without billing (%s)', (engine) => {
  let t: AccountsTestApp;
  beforeAll(async () => {
    t = await accountsApp({ engine });
  });
  afterAll(() => t?.close());

  it('needs a recent sign-in: an old one goes through the login page again, and nothing is deleted until then', async () => {
    const email = 'stale@example.com';
    const user = await t.app.container.make(Users).create({ name: 'Stale', email, password: PASSWORD });
    const device = new Browser(t);
    expect((await device.submit('/login', { email, password: PASSWORD })).status).toBe(302);
    const form = async () => ({
      _token: tokenIn(await (await device.get('/account')).text()),
      current_password: PASSWORD,
    });
    t.clock.advance(11 * 60_000);
    const stale = await device.post('/account/delete', await form(), { referer: 'http://localhost/account' });
    expect(stale.status).toBe(302);
    expect(stale.headers.get('location')).toBe('/login?intended=%2Faccount');
    expect(await t.app.container.make(Users).find(user.id)).toBeDefined();

    expect((await device.submit('/login', { email, password: PASSWORD })).status).toBe(302);
    const res = await device.post('/account/delete', await form());
    expect(res.status).toBe(303);
    expect(await t.app.container.make(Users).find(user.id)).toBeUndefined();
    await t.mailbox.waitFor(email, (m) => m.subject?.includes('account was deleted') ?? false);
  });

  it('keeps nothing addressed to the deleted account in the outbox: its links and notices go at once, the goodbye once sent', async () => {
    const email = 'outboxed@example.com';
    const neighbour = 'neighbour@example.com';
    const outbox = t.app.container.make(Outbox);
    const users = t.app.container.make(Users);
    await users.create({ name: 'Outboxed', email, password: PASSWORD });
    const device = new Browser(t);
    expect((await device.submit('/login', { email, password: PASSWORD })).status).toBe(302);
    const resend = async () =>
      device.post('/email/verification-notification', { _token: await device.csrfToken('/email/verify') });

    // A verification link sent, and another the server refused, waiting in the outbox for its retry.
    expect((await resend()).status).toBe(303);
    await t.mailbox.waitFor(email);
    t.mailbox.refuseNext(1);
    expect((await resend()).status).toBe(303);
    const refused = async () =>
      (await outbox.list({ to: email })).filter((m) => m.status === 'pending' && m.attempts === 1);
    while ((await refused()).length === 0) await new Promise((r) => setTimeout(r, 25));
    await t.app.container
      .make(Mailer)
      .send(verifyEmailMail, neighbour, { name: 'Neighbour', link: 'x', expiresMinutes: 60 });
    expect((await outbox.list({ to: email })).map((m) => m.kind)).toEqual(['verify-email', 'verify-email']);

    const res = await device.post('/account/delete', {
      _token: tokenIn(await (await device.get('/account')).text()),
      current_password: PASSWORD,
    });
    expect(res.status).toBe(303);
    for (const row of await outbox.list({ to: email })) expect(row.kind).toBe('account-deleted');
    await t.mailbox.waitFor(email, (m) => m.subject?.includes('account was deleted') ?? false);
    // The server took the goodbye: its row goes as the worker records it.
    while ((await outbox.list({ to: email })).length > 0) await new Promise((r) => setTimeout(r, 25));
    expect(t.mailbox.to(email)).toHaveLength(2);
    expect((await outbox.list({ to: neighbour })).map((m) => m.kind)).toEqual(['verify-email']);
  });
});
