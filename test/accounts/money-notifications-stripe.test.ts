import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createStripeSandbox } from '@tollgate/sandbox/stripe';
import type { ParsedMail } from 'mailparser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../../app/bootstrap.js';
import { referenceConfig } from '../../app/config.js';
import { scanTrialsEnding } from '../../src/accounts/index.js';
import { sandboxPlans } from '../../src/billing/gateway/stripe/catalog.js';
import { InvoicePaid, type PlanConfig } from '../../src/billing/index.js';
import { TestClock } from '../../src/core/clock.js';
import { createLogger } from '../../src/core/logger.js';
import type { Application } from '../../src/kernel/application.js';
import { listen, type RunningServer } from '../../src/kernel/server.js';
import { Mailer } from '../../src/mail/mailer.js';
import { Browser, tokenIn } from '../auth/browser.js';
import type { TestApp } from '../support/app.js';
import { createTestDatabase, type TestDatabase } from '../support/database.js';
import { type Mailbox, startMailbox } from '../support/mailbox.js';

const engine = process.env.TEST_DATABASE_URL ? 'postgres' : 'sqlite';
const SECRET = 'whsec_notifications';
const DAY = 86_400;

// The reference service over real HTTP on a Stripe sandbox that sends it webhooks, mail to a real
// SMTP server: the money notices of a subscription's life.
describe(`money notifications on Stripe (${engine})`, () => {
  const clock = new TestClock(new Date('2026-01-15T12:00:00Z'));
  const plans = referenceConfig.billing!.plans as PlanConfig[];
  const plan = plans.find((p) => !p.trialDays)!;
  const trialPlan = plans.find((p) => p.trialDays)!;
  let app: Application;
  let database: TestDatabase;
  let storagePath: string;
  let sandbox: ReturnType<typeof createStripeSandbox>;
  let stripeServer: Awaited<ReturnType<typeof sandbox.listen>>;
  let server: RunningServer;
  let mailbox: Mailbox;
  let n = 0;

  beforeAll(async () => {
    mailbox = await startMailbox();
    database = await createTestDatabase();
    sandbox = createStripeSandbox({ clock, plans: sandboxPlans(plans, 'usd') });
    stripeServer = await sandbox.listen(0, '127.0.0.1');
    storagePath = mkdtempSync(join(tmpdir(), 'tollgate-notices-'));
    app = await createApp(
      {
        app: { env: 'test', url: 'http://localhost' },
        database: { url: database.url },
        storagePath,
        routes: { cachePath: join(storagePath, 'routes.json') },
        mail: { url: mailbox.url, worker: { pollMs: 0 } },
        billing: {
          edition: 'stripe',
          currency: 'usd',
          stripe: {
            key: 'pk_test_x',
            secret: 'sk_test_notices',
            webhookSecret: SECRET,
            apiBase: stripeServer.url,
          },
        },
      },
      { clock, logger: createLogger('silent') },
    );
    await app.migrate();
    await app.boot();
    server = await listen(app, '127.0.0.1', 0);
    sandbox.setWebhook(`${server.url}/stripe/webhook`, SECRET);
  }, 60_000);

  afterAll(async () => {
    await server?.close();
    await app?.close();
    await stripeServer?.close();
    await database?.drop();
    await mailbox?.close();
    rmSync(storagePath, { recursive: true, force: true });
  });

  async function signIn(): Promise<{ browser: Browser; email: string }> {
    const transport = {
      request: (path: string, init: RequestInit = {}) => {
        const headers = new Headers(init.headers);
        if (headers.has('origin')) headers.set('origin', server.url);
        return fetch(new URL(path, server.url), { ...init, headers });
      },
    };
    const browser = new Browser(transport as unknown as TestApp);
    const email = `money${++n}@example.com`;
    const fields = { name: 'Ada', email, password: 'correct horse battery' };
    await browser.submit('/register', { ...fields, password_confirmation: fields.password });
    expect((await browser.submit('/login', { email, password: fields.password })).status).toBe(302);
    return { browser, email };
  }

  async function billingForm(browser: Browser, path: string, fields: Record<string, string>) {
    const page = await (await browser.get('/dashboard/billing')).text();
    const requestKey = /name="request_key" value="([^"]+)"/.exec(page)?.[1] ?? '';
    return browser.post(path, { _token: tokenIn(page), request_key: requestKey, ...fields });
  }

  /** Webhooks delivered, the outbox drained to the SMTP server; the mails to `email` of this kind. */
  async function mails(email: string, subject: string): Promise<ParsedMail[]> {
    await sandbox.webhooks.settled();
    await app.container.make(Mailer).drain();
    await new Promise((r) => setTimeout(r, 200));
    return mailbox.to(email).filter((m) => m.subject?.includes(subject));
  }

  it('a paid invoice: a receipt with the invoice PDF attached (pdftotext reads it); the same event twice, at once, mails once', async () => {
    const { browser, email } = await signIn();
    const posted = await billingForm(browser, '/dashboard/billing/subscribe', {
      plan: plan.id,
      token: 'pm_card_visa',
    });
    expect(posted.status).toBe(303);
    const [receipt, ...more] = await mails(email, 'receipt');
    expect(more).toEqual([]);
    expect(receipt!.subject).toBe(`Your Tollgate receipt ($9.00)`);
    expect(receipt!.text).toContain('http://localhost/dashboard/billing');
    const [pdf] = receipt!.attachments;
    expect(pdf?.contentType).toBe('application/pdf');
    const file = join(storagePath, 'receipt.pdf');
    writeFileSync(file, pdf!.content);
    const text = execFileSync('pdftotext', [file, '-']).toString();
    expect(text).toContain('$9.00');

    // Redelivered, and handled by two instances at once: no second receipt.
    const invoiceId = /\((in_[^)]+)\)/.exec(receipt!.text ?? '')![1]!;
    const userId = (
      await app.db.selectFrom('users').select('id').where('email', '=', email).executeTakeFirstOrThrow()
    ).id;
    await Promise.all([1, 2].map(() => app.events.dispatch(new InvoicePaid(userId, invoiceId, undefined))));
    expect(await mails(email, 'receipt')).toHaveLength(1);
  });

  it('a renewal that needs 3-D Secure: a mail with the confirmation link, which opens the payment page', async () => {
    const { browser, email } = await signIn();
    await billingForm(browser, '/dashboard/billing/subscribe', { plan: plan.id, token: 'pm_card_visa' });
    await billingForm(browser, '/dashboard/billing/card', { token: 'pm_card_authenticationRequired' });
    await sandbox.advance(32 * DAY);
    const [mail, ...more] = await mails(email, 'Confirm your');
    expect(more).toEqual([]);
    expect(await mails(email, 'payment failed')).toEqual([]);
    const link = /http:\/\/localhost(\/billing\/payment\/pi_\w+)/.exec(mail!.text ?? '')?.[1];
    expect(link).toBeDefined();
    expect(mail!.html).toContain(`href="http://localhost${link}"`);
    expect(mail!.text).toContain('$9.00');
    await browser.submit('/login', { email, password: 'correct horse battery' });
    const page = await browser.get(link!);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('data-payment-status="requires_action"');
  });

  it('a declined renewal: a payment-failed mail linking to the billing page', async () => {
    const { browser, email } = await signIn();
    await billingForm(browser, '/dashboard/billing/subscribe', { plan: plan.id, token: 'pm_card_visa' });
    await billingForm(browser, '/dashboard/billing/card', { token: 'tok_chargeCustomerFail' });
    await sandbox.advance(32 * DAY);
    const [mail] = await mails(email, 'payment failed');
    expect(mail!.text).toContain('Update your card: http://localhost/dashboard/billing');
    expect(mail!.html).toContain('href="http://localhost/dashboard/billing"');
  });

  it('a trial ending: one notice three days before (the trial_will_end webhook)', async () => {
    const { browser, email } = await signIn();
    await billingForm(browser, '/dashboard/billing/subscribe', { plan: trialPlan.id, token: 'pm_card_visa' });
    await sandbox.advance((trialPlan.trialDays! - 4) * DAY);
    expect(await mails(email, 'trial ends soon')).toEqual([]);
    await sandbox.advance(2 * DAY);
    const [mail, ...more] = await mails(email, 'trial ends soon');
    expect(more).toEqual([]);
    expect(mail!.text).toContain(`Your trial of the ${trialPlan.name} plan ends on`);
    // The scan (for providers with no such webhook) finds the same trial: no second notice.
    expect(await scanTrialsEnding(app)).toBeGreaterThanOrEqual(1);
    expect(await mails(email, 'trial ends soon')).toHaveLength(1);
  });

  it('a trial ending found by the scan alone (no webhook yet): one notice; the webhook after it adds none', async () => {
    const { browser, email } = await signIn();
    await billingForm(browser, '/dashboard/billing/subscribe', { plan: trialPlan.id, token: 'pm_card_visa' });
    await scanTrialsEnding(app); // another test's trial may be due; not this one
    expect(await mails(email, 'trial ends soon')).toEqual([]);
    clock.advance((trialPlan.trialDays! - 2) * DAY * 1000); // the app's clock only: the sandbox sends nothing
    await Promise.all([scanTrialsEnding(app), scanTrialsEnding(app)]); // two instances at once
    expect(await mails(email, 'trial ends soon')).toHaveLength(1);
    await sandbox.advance(0);
    expect(await mails(email, 'trial ends soon')).toHaveLength(1);
  });

  it('cancelled: one notice when the user cancels, none more when the period ends', async () => {
    const { browser, email } = await signIn();
    await billingForm(browser, '/dashboard/billing/subscribe', { plan: plan.id, token: 'pm_card_visa' });
    const cancelled = await billingForm(browser, '/dashboard/billing/cancel', {});
    expect(cancelled.status).toBe(303);
    const [mail] = await mails(email, 'subscription is cancelled');
    expect(mail!.text).toContain(`You keep the plan until`);
    await sandbox.advance(32 * DAY);
    expect(await mails(email, 'subscription')).toHaveLength(1);
  });
});
