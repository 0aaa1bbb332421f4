import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { referenceConfig } from '../../app/config.js';
import { PaymentActionRequired, type PlanConfig } from '../../src/billing/index.js';
import { TestClock } from '../../src/core/clock.js';
import { EventsKey } from '../../src/core/keys.js';
import type { Application } from '../../src/kernel/application.js';
import type { RunningServer } from '../../src/kernel/server.js';
import { type Browser, tokenIn } from '../auth/browser.js';
import { ANY_ENGINE } from '../support/engines.js';
import { type ReferenceOverHttp, startReferenceOverHttp } from './reference-over-http.js';
import { stripeHarness } from './stripe-harness.js';

// The reference service over real HTTP on a Stripe sandbox that sends it webhooks: 3-D Secure
// through the billing page, the payment confirmation page and the sandbox's challenge page.
describe(`the billing page and /billing/payment/{id}: 3-D Secure`, () => {
  const clock = new TestClock(new Date('2026-01-15T12:00:00Z'));
  const plans = referenceConfig.billing!.plans as PlanConfig[];
  const plan = plans.find((p) => !p.trialDays)!;
  let service: ReferenceOverHttp;
  let app: Application;
  let server: RunningServer;
  let stripeUrl: string;
  /** The address of the user `signIn()` made last. */
  let lastEmail = '';

  beforeAll(async () => {
    service = await startReferenceOverHttp(stripeHarness, { clock, engine: ANY_ENGINE });
    ({ app, server } = service);
    stripeUrl = String(service.sandbox.config.stripe!.apiBase);
  }, 60_000);

  afterAll(() => service?.close());

  /** A signed-in browser talking to the server over HTTP (same-origin `Origin` on its forms). */
  async function signIn(): Promise<Browser> {
    const { browser, email } = await service.signIn('sca');
    lastEmail = email;
    return browser;
  }

  const path = (location: string | null) => {
    const url = new URL(location ?? '', server.url);
    return `${url.pathname}${url.search}`;
  };

  async function subscribe(browser: Browser, token: string): Promise<Response> {
    const page = await (await browser.get('/dashboard/billing')).text();
    const requestKey = /name="request_key" value="([^"]+)"/.exec(page)?.[1] ?? '';
    return browser.post('/dashboard/billing/subscribe', {
      _token: tokenIn(page),
      request_key: requestKey,
      plan: plan.id,
      token,
    });
  }

  /** The confirmation page's "Confirm payment" link, then a button on the sandbox's challenge page. */
  async function challenge(confirmationPage: string, outcome: 'complete' | 'fail'): Promise<string> {
    const href = /href="([^"]+)" data-confirm-payment/.exec(confirmationPage)?.[1]?.replaceAll('&amp;', '&');
    expect(href).toContain(`${stripeUrl}/_sandbox/3ds/`);
    const challengePage = await (await fetch(href!)).text();
    expect(challengePage).toContain('Complete authentication');
    const field = (name: string) =>
      new RegExp(`name="${name}" value="([^"]*)"`).exec(challengePage)?.[1] ?? '';
    const res = await fetch(href!.split('?')[0]!, {
      method: 'POST',
      body: new URLSearchParams({
        client_secret: field('client_secret'),
        return_url: field('return_url').replaceAll('&amp;', '&').replaceAll('&#38;', '&'),
        outcome,
      }),
      redirect: 'manual',
    });
    expect(res.status).toBe(303);
    return path(res.headers.get('location'));
  }

  const rows = async (email: string) =>
    app.db
      .selectFrom('subscriptions')
      .innerJoin('users', 'users.id', 'subscriptions.user_id')
      .select(['subscriptions.status', 'subscriptions.stripe_id'])
      .where('users.email', '=', email)
      .execute();

  it('subscribing with a 3-D Secure card leads to the confirmation page; completing it activates the subscription', async () => {
    const browser = await signIn();
    const posted = await subscribe(browser, 'pm_card_threeDSecure2Required');
    expect(posted.status).toBe(303);
    const confirmPath = path(posted.headers.get('location'));
    expect(confirmPath).toMatch(/^\/billing\/payment\/pi_/);
    const page = await (await browser.get(confirmPath)).text();
    expect(page).toContain('data-payment-status="requires_action"');
    expect(page).toContain(`$9.00 — ${plan.name} subscription`);
    expect(await rows(lastEmail)).toMatchObject([{ status: 'incomplete' }]);
    const billing = await (await browser.get('/dashboard/billing')).text();
    expect(billing).toContain('data-payment-banner');
    expect(billing).toContain('Payment not confirmed');

    const back = await challenge(page, 'complete');
    expect(back).toMatch(
      new RegExp(`^${confirmPath.split('?')[0]}\\?payment_intent=pi_.*redirect_status=succeeded`),
    );
    // The page is opened twice at once (a reload, a second tab): it activates once, charges once.
    const [a, b] = await Promise.all([browser.get(back), browser.get(back)]);
    expect([a.status, b.status]).toEqual([200, 200]);
    expect(await a.text()).toContain('Payment confirmed. Your subscription is active.');
    const [row] = await rows(lastEmail);
    expect(row?.status).toBe('active');
    const customer = await app.db
      .selectFrom('users')
      .select('stripe_id')
      .where('email', '=', lastEmail)
      .executeTakeFirstOrThrow();
    expect((await service.sandbox.payments(customer.stripe_id!)).filter((p) => p.succeeded)).toHaveLength(1);
    const after = await (await browser.get('/dashboard/billing')).text();
    expect(after).not.toContain('data-payment-banner');
    expect(after).toContain('data-state="active"');
  });

  it('failed authentication: the page says so and the subscription stays incomplete; subscribing again works', async () => {
    const browser = await signIn();
    const email = lastEmail;
    const confirmPath = path(
      (await subscribe(browser, 'pm_card_threeDSecure2Required')).headers.get('location'),
    );
    const back = await challenge(await (await browser.get(confirmPath)).text(), 'fail');
    const page = await (await browser.get(back)).text();
    expect(page).toContain('data-payment-status="requires_payment_method"');
    expect(page).toContain('We are unable to authenticate your payment method');
    expect(await rows(email)).toMatchObject([{ status: 'incomplete' }]);
    const again = await subscribe(browser, 'pm_card_visa');
    expect(path(again.headers.get('location'))).toBe('/dashboard/billing');
    expect((await rows(email)).map((r) => r.status).sort()).toEqual(['active', 'canceled']);
  });

  it("another user's payment page is 404", async () => {
    const owner = await signIn();
    const confirmPath = path(
      (await subscribe(owner, 'pm_card_threeDSecure2Required')).headers.get('location'),
    );
    const other = await signIn();
    const res = await other.get(confirmPath);
    expect(res.status).toBe(404);
    expect(await res.text()).not.toContain('client_secret');
  });

  it('a card typed on the sandbox card page (SetupIntent, 3-D Secure on setup) is saved and subscribes without another challenge', async () => {
    const browser = await signIn();
    const setup = await browser.get('/dashboard/billing/card/setup');
    expect(setup.status).toBe(303);
    const cardPage = setup.headers.get('location')!;
    expect(cardPage).toContain(`${stripeUrl}/_sandbox/setup/seti_`);
    const form = await (await fetch(cardPage)).text();
    const field = (name: string) =>
      (new RegExp(`name="${name}" value="([^"]*)"`).exec(form)?.[1] ?? '')
        .replaceAll('&#38;', '&')
        .replaceAll('&amp;', '&');
    const typed = await fetch(cardPage.split('?')[0]!, {
      method: 'POST',
      body: new URLSearchParams({
        client_secret: field('client_secret'),
        return_url: field('return_url'),
        number: '4000 0025 0000 3155',
      }),
      redirect: 'manual',
    });
    expect(typed.status).toBe(303);
    const challengeUrl = typed.headers.get('location')!;
    const challengePage = await (await fetch(challengeUrl)).text();
    const secret = /name="client_secret" value="([^"]*)"/.exec(challengePage)?.[1] ?? '';
    const done = await fetch(challengeUrl.split('?')[0]!, {
      method: 'POST',
      body: new URLSearchParams({ client_secret: secret, outcome: 'complete' }),
      redirect: 'manual',
    });
    const back = await browser.get(path(done.headers.get('location')));
    expect(back.status).toBe(303);
    const billing = await (await browser.get('/dashboard/billing')).text();
    expect(billing).toContain('Your payment method is updated.');
    expect(billing).toMatch(/Visa ending <strong>3155<\/strong>/);
    const posted = await subscribe(browser, '');
    expect(path(posted.headers.get('location'))).toBe('/dashboard/billing');
    expect(await rows(lastEmail)).toMatchObject([{ status: 'active' }]);
  });

  it('a renewal that needs 3-D Secure: PaymentActionRequired is dispatched, the billing page shows the banner, confirming makes it active', async () => {
    const browser = await signIn();
    const email = lastEmail;
    expect(path((await subscribe(browser, 'pm_card_visa')).headers.get('location'))).toBe(
      '/dashboard/billing',
    );
    const page = await (await browser.get('/dashboard/billing')).text();
    await browser.post('/dashboard/billing/card', {
      _token: tokenIn(page),
      token: 'pm_card_authenticationRequired',
    });
    const seen: PaymentActionRequired[] = [];
    const stop = app.container.make(EventsKey).listen(PaymentActionRequired, (event) => {
      seen.push(event);
    });
    await service.sandbox.advanceDays(32);
    stop();
    expect(await rows(email)).toMatchObject([{ status: 'past_due' }]);
    const user = await app.db
      .selectFrom('users')
      .select('id')
      .where('email', '=', email)
      .executeTakeFirstOrThrow();
    const mine = seen.filter((e) => e.userId === user.id);
    expect(mine).toHaveLength(1);
    // A month later the session has expired: the customer signs in again (from the e-mail's link).
    await browser.submit('/login', { email, password: 'correct horse battery' });
    const billing = await (await browser.get('/dashboard/billing')).text();
    expect(billing).toContain('data-payment-banner');
    const link = `/billing/payment/${mine[0]!.payment.id}`;
    expect(billing).toContain(`href="${link}"`);
    const back = await challenge(await (await browser.get(link)).text(), 'complete');
    expect(await (await browser.get(back)).text()).toContain('Payment confirmed.');
    expect(await rows(email)).toMatchObject([{ status: 'active' }]);
    expect(await (await browser.get('/dashboard/billing')).text()).not.toContain('data-payment-banner');
  });
});
