import type { ParsedMail } from 'mailparser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { referenceConfig } from '../../app/config.js';
import { scanTrialsEnding } from '../../src/accounts/index.js';
import type { PlanConfig } from '../../src/billing/index.js';
import { TestClock } from '../../src/core/clock.js';
import { Mailer } from '../../src/mail/mailer.js';
import { braintreeHarness } from '../billing/braintree-harness.js';
import { pdfText } from '../billing/contract/money.js';
import { type ReferenceOverHttp, startReferenceOverHttp } from '../billing/reference-over-http.js';
import { ENGINES } from '../support/engines.js';
import { type Mailbox, startMailbox } from '../support/mailbox.js';

const DAY_MS = 86_400_000;
const { tokens } = braintreeHarness;

// The reference service over real HTTP on a Braintree sandbox that sends it webhooks, mail to a
// real SMTP server: the money notices of a subscription's life, as Braintree reports it.
describe.each(ENGINES)('money notifications on Braintree (%s)', (engine) => {
  const clock = new TestClock(new Date('2026-01-15T12:00:00Z'));
  const plans = referenceConfig.billing!.plans as PlanConfig[];
  const plan = plans.find((p) => !p.trialDays)!;
  const trialPlan = plans.find((p) => p.trialDays)!;
  let service: ReferenceOverHttp;
  let mailbox: Mailbox;

  beforeAll(async () => {
    mailbox = await startMailbox();
    service = await startReferenceOverHttp(braintreeHarness, {
      clock,
      engine,
      config: { mail: { url: mailbox.url, worker: { pollMs: 0 } } },
    });
  }, 60_000);
  afterAll(async () => {
    await service?.close();
    await mailbox?.close();
  });

  const subscribe = async (planId: string) => {
    const { browser, email } = await service.signIn('bt-money');
    const posted = await service.billingForm(browser, '/dashboard/billing/subscribe', {
      plan: planId,
      token: tokens.card,
    });
    expect(posted.status).toBe(303);
    return { browser, email };
  };

  /** Webhooks delivered, the outbox drained to the SMTP server; the mails to `email` with this in the subject. */
  async function mails(email: string, subject: string): Promise<ParsedMail[]> {
    await service.sandbox.settled();
    await service.app.container.make(Mailer).drain();
    await new Promise((r) => setTimeout(r, 200));
    return mailbox.to(email).filter((m) => m.subject?.includes(subject));
  }

  it('a charged subscription (subscription_charged_successfully): one receipt with the invoice PDF', async () => {
    const { email } = await subscribe(plan.id);
    const [receipt, ...more] = await mails(email, 'receipt');
    expect(more).toEqual([]);
    expect(receipt!.subject).toBe('Your Tollgate receipt ($9.00)');
    const [pdf] = receipt!.attachments;
    expect(pdf?.contentType).toBe('application/pdf');
    expect(pdfText(pdf!.content)).toContain('$9.00');
  });

  it('a declined renewal (subscription_charged_unsuccessfully): a payment-failed mail linking to the billing page', async () => {
    const { browser, email } = await subscribe(plan.id);
    const card = await service.billingForm(browser, '/dashboard/billing/card', { token: tokens.failsLater });
    expect(card.status).toBe(303);
    await service.sandbox.advanceDays(32);
    const [mail] = await mails(email, 'payment failed');
    expect(mail!.text).toContain('Update your card: http://localhost/dashboard/billing');
  });

  it('a trial ending: Braintree sends no webhook, the scan finds it once, even run twice at once', async () => {
    const { email } = await subscribe(trialPlan.id);
    await scanTrialsEnding(service.app);
    expect(await mails(email, 'trial ends soon')).toEqual([]);
    clock.advance((trialPlan.trialDays! - 2) * DAY_MS); // the app's clock only: nothing falls due at the sandbox
    await Promise.all([scanTrialsEnding(service.app), scanTrialsEnding(service.app)]);
    const [mail, ...more] = await mails(email, 'trial ends soon');
    expect(more).toEqual([]);
    expect(mail!.text).toContain(`Your trial of the ${trialPlan.name} plan ends on`);
  });

  it('cancelled: one notice when the user cancels, none more when the period ends (subscription_expired or canceled)', async () => {
    const { browser, email } = await subscribe(plan.id);
    const cancelled = await service.billingForm(browser, '/dashboard/billing/cancel', {});
    expect(cancelled.status).toBe(303);
    const [mail] = await mails(email, 'subscription is cancelled');
    expect(mail!.text).toContain('You keep the plan until');
    await service.sandbox.advanceDays(32);
    expect(await mails(email, 'subscription')).toHaveLength(1);
  });
});
