import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Users } from '../../src/auth/users.js';
import { BillingError, Payments, Reconciler } from '../../src/billing/index.js';
import { TestClock } from '../../src/core/clock.js';
import type { RunningServer } from '../../src/kernel/server.js';
import type { TestApp } from '../support/app.js';
import { ENGINES } from '../support/engines.js';
import { startBillingApp, stopBillingApp } from './billing-app.js';
import { braintreeHarness } from './braintree-harness.js';
import type { TestUser } from './contract/context.js';
import type { EditionSandbox } from './harness.js';
import { incomplete } from './incomplete-payment.js';

/** A card whose bank asks for 3-D Secure (the Braintree sandbox's, Visa 4000 0000 0000 1091). */
const SCA_CARD = 'fake-valid-three-d-secure-visa-nonce';
const RETURN = 'http://app.test/billing/payment/back';

/**
 * What the customer's browser does with `payment.actionUrl` (the Drop-in's `verifyCard` stand-in):
 * the issuer's challenge, answered; the verified nonce it sends back.
 */
async function verify(actionUrl: string | null, outcome: 'complete' | 'fail'): Promise<string> {
  const url = new URL(actionUrl ?? '');
  const page = await fetch(`${url}&return_url=${encodeURIComponent(RETURN)}`);
  expect(await page.text()).toContain('Complete authentication');
  const answer = await fetch(`${url.origin}${url.pathname}`, {
    method: 'POST',
    body: new URLSearchParams({ nonce: url.searchParams.get('nonce') ?? '', return_url: RETURN, outcome }),
    redirect: 'manual',
  });
  const back = new URL(answer.headers.get('location') ?? '');
  expect(back.searchParams.get('liability_shifted')).toBe(String(outcome === 'complete'));
  return back.searchParams.get('payment_method_nonce') ?? '';
}

// Strong customer authentication on Braintree: 3-D Secure through the Drop-in, IncompletePayment.
describe.each(ENGINES)('Braintree SCA: 3-D Secure and IncompletePayment (%s)', (engine) => {
  const clock = new TestClock(new Date('2026-02-10T12:00:00Z'));
  const { plans } = braintreeHarness;
  let sandbox: EditionSandbox;
  let t: TestApp;
  let server: RunningServer;
  let n = 0;

  beforeAll(async () => {
    sandbox = await braintreeHarness.startSandbox({
      clock,
      plans: [plans.monthly, plans.other],
      coupons: [],
      currency: 'usd',
    });
    ({ t, server } = await startBillingApp({
      engine,
      harness: braintreeHarness,
      sandbox,
      clock,
      billing: { plans: [plans.monthly, plans.other] },
      controller: braintreeHarness.webhook.controller,
    }));
  });
  afterAll(() => stopBillingApp({ t, server }, sandbox));

  const newUser = () =>
    t.app.container.make(Users).create<TestUser>({
      name: 'Strong Auth',
      email: `bt-sca${++n}@example.com`,
      password: 'correct horse battery',
    });
  const payments = () => t.app.container.make(Payments);
  const reload = async (user: TestUser) => (await t.app.container.make(Users).find<TestUser>(user.id))!;
  const paid = async (user: TestUser) => sandbox.payments((await reload(user)).braintree_id!);

  it('a card that needs 3-D Secure: IncompletePayment with the declined payment, the row stored incomplete, not subscribed', async () => {
    const user = await newUser();
    const err = await incomplete(user.newSubscription('main', plans.monthly.id).create(SCA_CARD));
    expect(err).toMatchObject({ code: 'payment_action_required', status: 402 });
    expect(err.requiresAction()).toBe(true);
    expect(err.payment).toMatchObject({ status: 'requires_action', amount: 2000, currency: 'usd' });
    const sub = (await user.subscription('main'))!;
    expect(sub.providerId).toBe(`${err.payment.id}-3ds`);
    expect([sub.status, sub.valid(), await user.subscribed('main')]).toEqual(['incomplete', false, false]);
    expect((await user.incompletePayment('main'))?.id).toBe(err.payment.id);
    const found = await user.findPayment(err.payment.id);
    expect(found).toMatchObject({ subscriptionId: sub.providerId, status: 'requires_action' });
    // A nonce of the vaulted card for the Drop-in to verify, and (offline) the sandbox's challenge.
    expect(found.clientSecret).toMatch(/^tokencc_/);
    expect(found.actionUrl).toContain('/_sandbox/three_d_secure?nonce=');
    expect(await paid(user)).toEqual([{ amount: 2000, succeeded: false }]);
    // Not drift: the subscription is made at Braintree once the payment is authenticated.
    const report = await t.app.container
      .make(Reconciler)
      .run({ owner: { type: 'user', id: user.id }, fix: true, adoptAs: 'main' });
    expect(report.drift).toEqual([]);
    expect((await user.subscription('main'))!.status).toBe('incomplete');
  });

  it('authenticated through the challenge: the subscription starts with the verified nonce and is active; twice at once pays once', async () => {
    const user = await newUser();
    const { payment } = await incomplete(user.newSubscription('main', plans.monthly.id).create(SCA_CARD));
    const nonce = await verify((await user.findPayment(payment.id)).actionUrl, 'complete');
    // A double click or a reload of the return URL: the same nonce twice at once.
    const [a, b] = await Promise.all([
      payments().complete(user, payment.id, nonce),
      payments().complete(user, payment.id, nonce),
    ]);
    expect([a.status, b.status]).toEqual(['succeeded', 'succeeded']);
    const sub = (await user.subscription('main'))!;
    expect([sub.status, await user.subscribed('main')]).toEqual(['active', true]);
    expect(await user.incompletePayment('main')).toBeNull();
    expect((await user.findPayment(payment.id)).status).toBe('succeeded');
    expect(await paid(user)).toEqual([
      { amount: 2000, succeeded: false },
      { amount: 2000, succeeded: true },
    ]);
    await sandbox.settled();
    expect((await user.subscription('main'))!.status).toBe('active');
    expect((await user.invoices()).map((i) => i.total())).toEqual(['$20.00']);
  });

  it('failed authentication: nothing is charged, the row stays incomplete; subscribing again with another card replaces it', async () => {
    const user = await newUser();
    const { payment } = await incomplete(user.newSubscription('main', plans.monthly.id).create(SCA_CARD));
    const nonce = await verify((await user.findPayment(payment.id)).actionUrl, 'fail');
    const failed = await payments().complete(user, payment.id, nonce);
    expect(failed.status).toBe('requires_payment_method');
    expect(failed.failureMessage).toMatch(/did not authenticate/);
    expect((await user.subscription('main'))!.status).toBe('incomplete');
    // It may be tried again.
    expect((await user.findPayment(payment.id)).status).toBe('requires_action');
    const sub = await user.newSubscription('main', plans.monthly.id).create('fake-valid-nonce');
    expect([sub.status, await user.subscribed('main')]).toEqual(['active', true]);
    expect((await user.subscriptions()).map((s) => s.status).sort()).toEqual(['active', 'canceled']);
  });

  it('a double submit (one request key) makes one incomplete row; both get the same IncompletePayment', async () => {
    const user = await newUser();
    const create = () =>
      incomplete(
        user
          .newSubscription('main', plans.monthly.id)
          .create(SCA_CARD, { requestKey: `bt-sca-double-${user.id}` }),
      );
    const [a, b] = await Promise.all([create(), create()]);
    expect(a.payment.id).toBe(b.payment.id);
    expect((await user.subscriptions()).map((s) => s.status)).toEqual(['incomplete']);
  });

  it('charge() on a card that needs 3-D Secure throws IncompletePayment; authenticated, the sale is made once', async () => {
    const user = await newUser();
    await user.updateCard(SCA_CARD);
    const { payment } = await incomplete(user.charge(12.5));
    expect(payment).toMatchObject({ amount: 1250, subscriptionId: null });
    const nonce = await verify((await user.findPayment(payment.id)).actionUrl, 'complete');
    expect((await payments().complete(user, payment.id, nonce)).status).toBe('succeeded');
    expect((await payments().complete(user, payment.id, nonce)).status).toBe('succeeded');
    expect((await user.findPayment(payment.id)).status).toBe('succeeded');
    expect(await paid(user)).toEqual([
      { amount: 1250, succeeded: false },
      { amount: 1250, succeeded: true },
    ]);
  });

  it("another user's payment is not found, and cannot be completed", async () => {
    const owner = await newUser();
    const { payment } = await incomplete(owner.newSubscription('main', plans.monthly.id).create(SCA_CARD));
    const other = await newUser();
    await other.updateCard('fake-valid-nonce');
    for (const attempt of [other.findPayment(payment.id), payments().complete(other, payment.id, 'x')]) {
      const err = await attempt.then(
        () => null,
        (e: unknown) => e,
      );
      expect(err).toBeInstanceOf(BillingError);
      expect((err as BillingError).code).toBe('payment_not_found');
    }
  });
});
