import type { Context, Hono } from 'hono';
import type Stripe from 'stripe';
import {
  type CheckoutOutcome,
  finishAuthentication,
  openSession,
  payCheckoutSession,
} from '../domain/checkout.js';
import type { SandboxContext } from '../domain/context.js';
import { formatAmount, productName } from '../domain/invoice-builder.js';
import { Params } from '../domain/params.js';
import {
  attachPaymentMethod,
  createPaymentMethod,
  defaultInstrument,
  type Instrument,
} from '../domain/payment-methods.js';
import { changeSubscription } from '../domain/subscription-state.js';
import { updateSubscription } from '../domain/subscription-update.js';
import { StripeSandboxError } from '../objects/errors.js';
import { testCardByNumber } from '../objects/test-cards.js';
import { esc, page, testCardList } from './hosted-pages.js';
import type { SandboxEnv } from './respond.js';

const day = (seconds: number) => new Date(seconds * 1000).toISOString().slice(0, 10);
const every = (price: Stripe.Price) =>
  price.recurring
    ? ` / ${price.recurring.interval_count > 1 ? `${price.recurring.interval_count} ` : ''}${price.recurring.interval}`
    : '';
const priceLabel = (price: Stripe.Price) =>
  `${formatAmount(price.unit_amount ?? 0, price.currency)}${every(price)}`;
/** `Visa •••• 4242`: a card source names its brand (`Visa`), a PaymentMethod's card in lower case. */
const instrumentLabel = (instrument: Instrument) => {
  const card = 'card' in instrument ? instrument.card : instrument.paymentMethod.card;
  if (!card) return 'No card on file';
  return `${card.brand.charAt(0).toUpperCase()}${card.brand.slice(1)} •••• ${card.last4}`;
};

/**
 * The stand-ins for Stripe's hosted Checkout page and customer portal: plain forms, no script.
 * Checkout shows what the session sells and takes a test card number; the portal lists the
 * customer's subscriptions to cancel at period end, renew or switch, and replaces the card.
 */
export function registerCheckoutPages(app: Hono<SandboxEnv>, ctx: SandboxContext): void {
  const { store, events } = ctx;

  const notFound = (c: Context, what: string) =>
    c.html(page('Not found', `<h1>Unknown ${what}</h1><p>This link is not valid in this sandbox.</p>`), 404);

  const checkoutPage = (session: Stripe.Checkout.Session, error?: string) => {
    const extras = store.checkoutExtras.get(session.id);
    const items = extras?.lineItems ?? [];
    const trial = extras?.trialPeriodDays ?? null;
    const total = formatAmount(session.amount_total ?? 0, session.currency ?? 'usd');
    const lines = items
      .map(
        (li) =>
          `<li data-line-item><strong>${esc(li.description ?? '')}</strong> — ${esc(priceLabel(li.price!))}${li.quantity && li.quantity > 1 ? ` × ${li.quantity}` : ''}</li>`,
      )
      .join('');
    const due =
      session.mode === 'setup'
        ? 'Save a card for later payments.'
        : trial
          ? `${trial}-day free trial: nothing is due today, then ${total} per period.`
          : `Total due today: <strong data-total>${esc(total)}</strong>`;
    const button =
      session.mode === 'subscription'
        ? 'Subscribe'
        : session.mode === 'payment'
          ? `Pay ${total}`
          : 'Save card';
    const email =
      session.customer_email ??
      (typeof session.customer === 'string' ? store.customers.get(session.customer)?.email : null);
    return page(
      'Checkout',
      `<p class="muted">Tollgate sandbox · Checkout (${esc(session.mode)} mode)</p><h1>Checkout</h1>
${error ? `<p class="error" role="alert">${esc(error)}</p>` : ''}
${lines ? `<ul>${lines}</ul>` : ''}<p>${due}</p>${email ? `<p class="muted">Paying as ${esc(email)}</p>` : ''}
<form method="post"><label for="number">Card number</label><input id="number" name="number" inputmode="numeric" autocomplete="off" value="4242 4242 4242 4242">
<button type="submit" data-pay>${esc(button)}</button></form>
${session.cancel_url ? `<p><a href="${esc(session.cancel_url)}" data-cancel>← Cancel and go back</a></p>` : ''}
${testCardList()}`,
    );
  };

  const closedPage = (session: Stripe.Checkout.Session) =>
    page(
      'Checkout',
      `<h1>${session.status === 'complete' ? 'You are all done here' : 'This Checkout Session has expired'}</h1>
<p>Status: <code>${esc(String(session.status))}</code></p>`,
    );

  const settle = async (c: Context, session: Stripe.Checkout.Session, outcome: CheckoutOutcome) => {
    await events.flush();
    if (outcome.kind !== 'error') return c.redirect(outcome.redirect, 303);
    return c.html(checkoutPage(session, outcome.message), 402);
  };

  app.get('/_sandbox/checkout/:id', (c) => {
    const session = store.checkoutSessions.get(c.req.param('id'));
    if (!session) return notFound(c, 'Checkout Session');
    if (!openSession(ctx, session)) return c.html(closedPage(session), 410);
    return c.html(checkoutPage(session));
  });

  app.post('/_sandbox/checkout/:id', async (c) => {
    const session = store.checkoutSessions.get(c.req.param('id'));
    if (!session) return notFound(c, 'Checkout Session');
    if (!openSession(ctx, session)) return c.html(closedPage(session), 410);
    const form = await c.req.parseBody();
    const card = testCardByNumber(String(form.number ?? ''));
    if (!card)
      return c.html(
        checkoutPage(session, 'Your card number is incorrect: use one of the test numbers.'),
        422,
      );
    return settle(c, session, payCheckoutSession(ctx, session, card));
  });

  app.get('/_sandbox/checkout/:id/authenticated', async (c) => {
    const session = store.checkoutSessions.get(c.req.param('id'));
    if (!session) return notFound(c, 'Checkout Session');
    if (session.status !== 'open') return c.html(closedPage(session), 410);
    return settle(c, session, finishAuthentication(ctx, session));
  });

  const portalPage = (session: Stripe.BillingPortal.Session, message?: { error?: string; done?: string }) => {
    const customer = store.customer(session.customer);
    const subs = [...store.subscriptions.values()].filter(
      (s) => s.customer === customer.id && s.status !== 'canceled' && s.status !== 'incomplete_expired',
    );
    // The customer's default (a PaymentMethod or a card source), else one a subscription pays with.
    const shown =
      defaultInstrument(ctx, customer) ??
      subs.map((s) => defaultInstrument(ctx, customer, s)).find((found) => found !== null);
    const card = shown ? instrumentLabel(shown) : 'No card on file';
    const rows = subs
      .map((s) => {
        const item = s.items.data[0]!;
        const end = s.items.data[0]?.current_period_end ?? s.created;
        const others = [...store.prices.values()].filter(
          (p) => p.active && p.type === 'recurring' && p.currency === s.currency && p.id !== item.price.id,
        );
        const state = s.cancel_at_period_end
          ? `Cancels on ${day(end)}`
          : s.status === 'trialing'
            ? `Trial ends on ${day(s.trial_end ?? end)}`
            : `Renews on ${day(end)}`;
        return `<section data-portal-subscription="${esc(s.id)}"><h2>${esc(productName(ctx, item.price))}</h2>
<p>${esc(priceLabel(item.price))} · <span data-portal-state>${esc(state)}</span> · <code>${esc(s.status)}</code></p>
<form method="post"><input type="hidden" name="subscription" value="${esc(s.id)}">
${s.cancel_at_period_end ? '<button name="action" value="renew">Renew plan</button>' : '<button class="fail" name="action" value="cancel">Cancel plan</button>'}</form>
${
  others.length > 0 && !s.cancel_at_period_end
    ? `<form method="post"><input type="hidden" name="subscription" value="${esc(s.id)}"><label for="price-${esc(s.id)}">Switch plan</label>
<select id="price-${esc(s.id)}" name="price">${others.map((p) => `<option value="${esc(p.id)}">${esc(productName(ctx, p))} — ${esc(priceLabel(p))}</option>`).join('')}</select>
<button name="action" value="switch">Update plan</button></form>`
    : ''
}</section>`;
      })
      .join('');
    return page(
      'Billing portal',
      `<p class="muted">Tollgate sandbox · customer portal</p><h1>Manage billing</h1>
${message?.error ? `<p class="error" role="alert">${esc(message.error)}</p>` : ''}${message?.done ? `<p role="status">${esc(message.done)}</p>` : ''}
<p class="muted">${esc(customer.email ?? customer.id)}</p>
${rows || '<p>No current subscriptions.</p>'}
<section><h2>Payment method</h2><p data-portal-card>${esc(card)}</p>
<form method="post"><label for="number">New card number</label><input id="number" name="number" inputmode="numeric" autocomplete="off" value="">
<button name="action" value="card">Update card</button></form></section>
${session.return_url ? `<p><a href="${esc(session.return_url)}" data-return>← Return to the application</a></p>` : ''}
${testCardList()}`,
    );
  };

  app.get('/_sandbox/portal/:id', (c) => {
    const session = store.portalSessions.get(c.req.param('id'));
    if (!session) return notFound(c, 'portal session');
    return c.html(portalPage(session, { done: c.req.query('done') }));
  });

  app.post('/_sandbox/portal/:id', async (c) => {
    const session = store.portalSessions.get(c.req.param('id'));
    if (!session) return notFound(c, 'portal session');
    const form = await c.req.parseBody();
    let done: string;
    try {
      done = portalAction(ctx, session, form as Record<string, unknown>);
    } catch (error) {
      await events.flush();
      const message =
        error instanceof StripeSandboxError ? String(error.toJSON().error.message) : String(error);
      return c.html(portalPage(session, { error: message }), 402);
    }
    await events.flush();
    return c.redirect(`/_sandbox/portal/${session.id}?done=${encodeURIComponent(done)}`, 303);
  });
}

/** One change made on the portal page, as Stripe's portal makes it through the API. */
function portalAction(
  ctx: SandboxContext,
  session: Stripe.BillingPortal.Session,
  form: Record<string, unknown>,
): string {
  const { store } = ctx;
  const action = String(form.action ?? '');
  if (action === 'card') {
    const spec = testCardByNumber(String(form.number ?? ''));
    if (!spec)
      throw StripeSandboxError.invalid(
        'Your card number is incorrect: use one of the test numbers.',
        'number',
      );
    if (spec.outcome !== 'succeed') throw StripeSandboxError.cardDeclined();
    const customer = store.customer(session.customer);
    const pm = attachPaymentMethod(ctx, createPaymentMethod(ctx, spec), customer.id);
    // The portal collects the card with a SetupIntent: it is set up for the renewals.
    store.setUpForOffSession.add(pm.id);
    const previous = { invoice_settings: { ...customer.invoice_settings } };
    customer.invoice_settings.default_payment_method = pm.id;
    ctx.events.emit('customer.updated', customer, previous);
    for (const sub of store.subscriptions.values()) {
      if (sub.customer !== customer.id || sub.status === 'canceled' || !sub.default_payment_method) continue;
      changeSubscription(ctx, sub, (s) => {
        s.default_payment_method = pm.id;
      });
    }
    return `Your card ending ${spec.last4} is saved.`;
  }
  const sub = store.subscription(String(form.subscription ?? ''), 'subscription');
  if (sub.customer !== session.customer)
    throw StripeSandboxError.noSuch('subscription', sub.id, 'subscription');
  if (action === 'cancel') {
    updateSubscription(ctx, sub, new Params({ cancel_at_period_end: 'true' }));
    return 'Your plan is cancelled at the end of the period.';
  }
  if (action === 'renew') {
    updateSubscription(ctx, sub, new Params({ cancel_at_period_end: 'false' }));
    return 'Your plan is renewed.';
  }
  if (action === 'switch') {
    const price = String(form.price ?? '');
    updateSubscription(
      ctx,
      sub,
      new Params({ items: [{ id: sub.items.data[0]!.id, price }], proration_behavior: 'create_prorations' }),
    );
    return 'Your plan is updated.';
  }
  throw StripeSandboxError.invalid(`Unknown action: ${action}`, 'action');
}
