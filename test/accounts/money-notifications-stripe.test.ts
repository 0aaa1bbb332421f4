import type { ParsedMail } from 'mailparser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { referenceConfig } from '../../app/config.js';
import { scanTrialsEnding } from '../../src/accounts/index.js';
import { InvoicePaid, type PlanConfig } from '../../src/billing/index.js';
import { TestClock } from '../../src/core/clock.js';
import type { Application } from '../../src/kernel/application.js';
import { Mailer } from '../../src/mail/mailer.js';
import type { Browser } from '../auth/browser.js';
import { pdfText } from '../billing/contract/money.js';
import { type ReferenceOverHttp, startReferenceOverHttp } from '../billing/reference-over-http.js';
import { stripeHarness } from '../billing/stripe-harness.js';
import { ENGINES } from '../support/engines.js';
import { type Mailbox, startMailbox } from '../support/mailbox.js';

const DAY_MS = 86_400_000;

// The reference service over real HTTP on a Stripe sandbox that sends it webhooks, mail to a real
// SMTP server: the money notices of a subscription's life.
describe.each(ENGINES)('money notifications on Stripe (%s)', (engine) => {
  const clock = new TestClock(new Date('2026-01-15T12:00:00Z'));
  const plans = referenceConfig.billing!.plans as PlanConfig[];
  const plan = plans.find((p) => !p.trialDays)!;
  const trialPlan = plans.find((p) => p.trialDays)!;
  let service: ReferenceOverHttp;
  let app: Application;
  let mailbox: Mailbox;

  beforeAll(async () => {
    mailbox = await startMailbox();
    service = await startReferenceOverHttp(stripeHarness, {
      clock,
      engine,
      config: { mail: { url: mailbox.url, worker: { pollMs: 0 } } },
    });
    app = service.app;
  }, 60_000);

  afterAll(async () => {
    await service?.close();
    await mailbox?.close();
  });

  const signIn = () => service.signIn('money');
  const billingForm = (browser: Browser, path: string, fields: Record<string, string>) =>
    service.billingForm(browser, path, fields);

  /** Webhooks delivered, the outbox drained to the SMTP server; the mails to `email` of this kind. */
  async function mails(email: string, subject: string): Promise<ParsedMail[]> {
    await service.sandbox.settled();
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
    const text = pdfText(pdf!.content);
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
    await service.sandbox.advanceDays(32);
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
    await service.sandbox.advanceDays(32);
    const [mail] = await mails(email, 'payment failed');
    expect(mail!.text).toContain('Update your card: http://localhost/dashboard/billing');
    expect(mail!.html).toContain('href="http://localhost/dashboard/billing"');
  });

  it('a trial ending: one notice three days before (the trial_will_end webhook)', async () => {
    const { browser, email } = await signIn();
    await billingForm(browser, '/dashboard/billing/subscribe', { plan: trialPlan.id, token: 'pm_card_visa' });
    await service.sandbox.advanceDays(trialPlan.trialDays! - 4);
    expect(await mails(email, 'trial ends soon')).toEqual([]);
    await service.sandbox.advanceDays(2);
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
    clock.advance((trialPlan.trialDays! - 2) * DAY_MS); // the app's clock only: the sandbox sends nothing
    await Promise.all([scanTrialsEnding(app), scanTrialsEnding(app)]); // two instances at once
    expect(await mails(email, 'trial ends soon')).toHaveLength(1);
    await service.sandbox.advanceDays(0);
    expect(await mails(email, 'trial ends soon')).toHaveLength(1);
  });

  it('cancelled: one notice when the user cancels, none more when the period ends', async () => {
    const { browser, email } = await signIn();
    await billingForm(browser, '/dashboard/billing/subscribe', { plan: plan.id, token: 'pm_card_visa' });
    const cancelled = await billingForm(browser, '/dashboard/billing/cancel', {});
    expect(cancelled.status).toBe(303);
    const [mail] = await mails(email, 'subscription is cancelled');
    expect(mail!.text).toContain(`You keep the plan until`);
    await service.sandbox.advanceDays(32);
    expect(await mails(email, 'subscription')).toHaveLength(1);
  });
});
