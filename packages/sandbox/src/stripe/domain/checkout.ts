import type Stripe from 'stripe';
import { CHECKOUT_SESSION_LIFETIME, makeCheckoutSession, makeLineItem } from '../objects/checkout.js';
import { StripeSandboxError } from '../objects/errors.js';
import { newId } from '../objects/ids.js';
import { makePaymentIntent, makeSetupIntent } from '../objects/intents.js';
import { makeCustomer } from '../objects/payments.js';
import type { TestCard } from '../objects/test-cards.js';
import type { SandboxContext } from './context.js';
import { Params } from './params.js';
import { authenticationUrl, confirmPaymentIntent } from './payment-intents.js';
import { attachPaymentMethod, createPaymentMethod } from './payment-methods.js';
import { confirmSetupIntent } from './setup-intents.js';
import { createSubscription } from './subscription-create.js';
import { taxRatesFrom } from './subscription-inputs.js';
import { cancelSubscription } from './subscription-state.js';

const MODES = ['payment', 'subscription', 'setup'] as const;

/** The result of paying on the sandbox's Checkout page. */
export type CheckoutOutcome =
  | { kind: 'complete'; redirect: string }
  | { kind: 'authenticate'; redirect: string }
  | { kind: 'error'; message: string };

const validUrl = (value: string, param: string): string => {
  try {
    new URL(value);
  } catch {
    throw StripeSandboxError.invalid('Not a valid URL', param, 'url_invalid');
  }
  return value;
};

/** https://docs.stripe.com/api/checkout/sessions/create (hosted; card payments). */
export function createCheckoutSession(ctx: SandboxContext, p: Params): Stripe.Checkout.Session {
  const { store } = ctx;
  const mode = p.required('mode') as Stripe.Checkout.Session.Mode;
  if (!(MODES as readonly string[]).includes(mode))
    throw StripeSandboxError.invalid(`Invalid mode: must be one of payment, subscription, or setup`, 'mode');
  const successUrl = validUrl(p.required('success_url'), 'success_url');
  const cancelUrl = p.str('cancel_url') ? validUrl(p.required('cancel_url'), 'cancel_url') : null;
  const customer = p.str('customer') ? store.customer(p.required('customer')).id : null;
  const customerEmail = p.str('customer_email') ?? null;
  if (customer && customerEmail)
    throw StripeSandboxError.invalid(
      'You may only specify one of these parameters: customer, customer_email.',
      'customer_email',
    );
  const lineItems = p.objects('line_items').map((item, i) => lineItemOf(ctx, item, i, mode));
  if (mode === 'setup' && lineItems.length > 0)
    throw StripeSandboxError.invalid('You cannot pass `line_items` in `setup` mode.', 'line_items');
  if (mode !== 'setup' && lineItems.length === 0) throw StripeSandboxError.missingParam('line_items');
  if (mode === 'subscription' && !lineItems.some((li) => li.price?.type === 'recurring'))
    throw StripeSandboxError.invalid(
      'You must provide at least one recurring price in `subscription` mode when using prices.',
      'line_items',
    );
  const currency = lineItems[0]?.currency ?? p.str('currency')?.toLowerCase() ?? null;
  if (lineItems.some((li) => li.currency !== currency))
    throw StripeSandboxError.invalid('All line items must have the same currency.', 'line_items');
  const subscriptionData = p.object('subscription_data');
  const paymentData = p.object('payment_intent_data');
  if (subscriptionData && mode !== 'subscription')
    throw StripeSandboxError.invalid(
      'You can only pass `subscription_data` in `subscription` mode.',
      'subscription_data',
    );
  if (paymentData && mode !== 'payment')
    throw StripeSandboxError.invalid(
      'You can only pass `payment_intent_data` in `payment` mode.',
      'payment_intent_data',
    );
  const trial = subscriptionData?.int('trial_period_days') ?? null;
  if (trial !== null && trial < 1)
    throw StripeSandboxError.invalid(
      'trial_period_days must be at least 1',
      'subscription_data[trial_period_days]',
    );
  const session = makeCheckoutSession(store.now(), {
    mode,
    customer,
    customerEmail,
    clientReferenceId: p.str('client_reference_id') ?? null,
    successUrl,
    cancelUrl,
    currency,
    amountSubtotal: mode === 'setup' ? null : lineItems.reduce((sum, li) => sum + li.amount_total, 0),
    metadata: p.metadata() ?? {},
    url: (id) => `${store.publicUrl}/_sandbox/checkout/${id}`,
  });
  const expiresAt = p.int('expires_at');
  if (expiresAt !== undefined) {
    if (expiresAt < store.now() + 1800 || expiresAt > store.now() + CHECKOUT_SESSION_LIFETIME)
      throw StripeSandboxError.invalid(
        'expires_at must be between 30 minutes and 24 hours from now',
        'expires_at',
      );
    session.expires_at = expiresAt;
  }
  const taxRates = subscriptionData ? (taxRatesFrom(ctx, subscriptionData) ?? []).map((r) => r.id) : [];
  const coupons = p.objects('discounts').map((d, i) => {
    const id = d.str('coupon');
    if (!id)
      throw StripeSandboxError.invalid('The sandbox supports discounts[n][coupon] only.', `discounts[${i}]`);
    return store.coupon(id, `discounts[${i}][coupon]`).id;
  });
  store.checkoutSessions.set(session.id, session);
  store.checkoutExtras.set(session.id, {
    lineItems,
    subscriptionMetadata: subscriptionData?.metadata() ?? {},
    trialPeriodDays: trial,
    taxRates,
    coupons,
    paymentMetadata: paymentData?.metadata() ?? {},
  });
  return session;
}

/** `line_items[n][price]` (a catalog price) or `line_items[n][price_data]` (one-time, inline). */
function lineItemOf(ctx: SandboxContext, item: Params, i: number, mode: string): Stripe.LineItem {
  const quantity = item.int('quantity') ?? 1;
  if (quantity < 1)
    throw StripeSandboxError.invalid('Quantity must be at least 1', `line_items[${i}][quantity]`);
  const priceId = item.str('price');
  if (priceId) {
    const { price } = ctx.store.recurring(priceId, `line_items[${i}][price]`);
    if (mode === 'payment')
      throw StripeSandboxError.invalid(
        'You specified `payment` mode but passed a recurring price. Either switch to `subscription` mode or use only one-time prices.',
        `line_items[${i}][price]`,
      );
    const product = ctx.store.products.get(String(price.product));
    return makeLineItem(price, quantity, product?.name ?? price.nickname ?? price.id);
  }
  const data = item.object('price_data');
  if (!data) throw StripeSandboxError.missingParam(`line_items[${i}][price]`);
  if (mode !== 'payment')
    throw StripeSandboxError.invalid(
      'The sandbox takes `price_data` in `payment` mode only.',
      `line_items[${i}][price_data]`,
    );
  const amount = data.int('unit_amount');
  if (amount === undefined)
    throw StripeSandboxError.missingParam(`line_items[${i}][price_data][unit_amount]`);
  const name = data.object('product_data')?.str('name');
  if (!name) throw StripeSandboxError.missingParam(`line_items[${i}][price_data][product_data][name]`);
  const price = {
    id: newId('price'),
    object: 'price',
    active: false,
    currency: data.required('currency').toLowerCase(),
    product: newId('prod'),
    recurring: null,
    type: 'one_time',
    unit_amount: amount,
  } as unknown as Stripe.Price;
  return makeLineItem(price, quantity, name);
}

/** The session, open and not past `expires_at`; an expired one is marked so (`checkout.session.expired`). */
export function openSession(ctx: SandboxContext, session: Stripe.Checkout.Session): boolean {
  if (session.status === 'open' && ctx.store.now() >= session.expires_at) expireSession(ctx, session);
  return session.status === 'open';
}

export function expireSession(ctx: SandboxContext, session: Stripe.Checkout.Session): void {
  if (session.status !== 'open')
    throw StripeSandboxError.invalid(
      `Only Checkout Sessions with a status in ["open"] can be expired. This Checkout Session has a status of "${session.status}".`,
    );
  session.status = 'expired';
  session.url = null;
  ctx.events.emit('checkout.session.expired', session);
}

/**
 * The customer paid on the sandbox's Checkout page with `card`: the customer (made if the session
 * has none), the subscription, payment or saved card, as Stripe makes them; then
 * `checkout.session.completed` and the `success_url` with `{CHECKOUT_SESSION_ID}` filled in. A
 * declined card changes nothing (the page says so); a card that asks for 3-D Secure goes to the
 * challenge first and comes back to `finishAuthentication`.
 */
export function payCheckoutSession(
  ctx: SandboxContext,
  session: Stripe.Checkout.Session,
  card: TestCard,
): CheckoutOutcome {
  const { store } = ctx;
  if (card.declineOnAttach || card.outcome !== 'succeed')
    return {
      kind: 'error',
      message:
        card.outcome === 'insufficient_funds'
          ? 'Your card has insufficient funds.'
          : 'Your card was declined.',
    };
  const extras = store.checkoutExtras.get(session.id)!;
  const customer = customerFor(ctx, session);
  const pm = createPaymentMethod(ctx, card);
  if (customer) attachPaymentMethod(ctx, pm, customer);
  if (session.mode === 'setup') {
    const si = makeSetupIntent(store.now(), {
      customer,
      usage: 'off_session',
      description: null,
      metadata: {},
    });
    store.setupIntents.set(si.id, si);
    ctx.events.emit('setup_intent.created', si);
    session.setup_intent = si.id;
    confirmSetupIntent(ctx, si, pm, null);
    if (si.status === 'requires_action') return authenticate(ctx, session, si);
    return complete(ctx, session);
  }
  if (session.mode === 'payment') {
    const pi = makePaymentIntent(store.now(), {
      amount: session.amount_total ?? 0,
      currency: session.currency ?? 'usd',
      customer,
      paymentMethod: pm.id,
      description: null,
      metadata: extras.paymentMetadata,
      receiptEmail: null,
    });
    store.paymentIntents.set(pi.id, pi);
    ctx.events.emit('payment_intent.created', pi);
    session.payment_intent = pi.id;
    confirmPaymentIntent(ctx, pi, { presence: 'on_session' });
    if (pi.status === 'requires_action') return authenticate(ctx, session, pi);
    return complete(ctx, session);
  }
  const trial = extras.trialPeriodDays;
  // A trial collects the card for later (a SetupIntent at Stripe): it is set up for off-session use.
  if (trial) store.setUpForOffSession.add(pm.id);
  const sub = createSubscription(
    ctx,
    new Params({
      customer,
      items: extras.lineItems.map((li) => ({ price: li.price?.id, quantity: String(li.quantity) })),
      default_payment_method: pm.id,
      metadata: extras.subscriptionMetadata,
      ...(trial ? { trial_period_days: String(trial) } : {}),
      payment_behavior: 'allow_incomplete',
      ...(extras.taxRates.length > 0 ? { default_tax_rates: extras.taxRates } : {}),
      ...(extras.coupons.length > 0 ? { discounts: extras.coupons.map((coupon) => ({ coupon })) } : {}),
    }),
  );
  session.subscription = sub.id;
  session.invoice =
    typeof sub.latest_invoice === 'string' ? sub.latest_invoice : (sub.latest_invoice?.id ?? null);
  if (sub.status === 'incomplete') {
    const pi = invoiceIntent(ctx, session.invoice);
    if (pi?.status === 'requires_action') return authenticate(ctx, session, pi);
    return { kind: 'error', message: pi?.last_payment_error?.message ?? 'Your card was declined.' };
  }
  // Paid on-session in the page: the card is saved for the renewals.
  store.setUpForOffSession.add(pm.id);
  return complete(ctx, session);
}

/**
 * Back from the 3-D Secure challenge: the session completes if the payment (or setup) went
 * through; otherwise what Checkout made is undone and the page shows why.
 */
export function finishAuthentication(ctx: SandboxContext, session: Stripe.Checkout.Session): CheckoutOutcome {
  const { store } = ctx;
  if (session.mode === 'subscription') {
    const sub = session.subscription ? store.subscriptions.get(String(session.subscription)) : undefined;
    if (sub && sub.status !== 'incomplete' && sub.status !== 'incomplete_expired') {
      const pm = sub.default_payment_method;
      if (typeof pm === 'string') store.setUpForOffSession.add(pm);
      return complete(ctx, session);
    }
    if (sub?.status === 'incomplete') cancelSubscription(ctx, sub, 'payment_failed');
    session.subscription = null;
    session.invoice = null;
    return { kind: 'error', message: 'We are unable to authenticate your payment method.' };
  }
  const intent =
    session.mode === 'payment'
      ? store.paymentIntents.get(String(session.payment_intent))
      : store.setupIntents.get(String(session.setup_intent));
  if (intent?.status === 'succeeded') return complete(ctx, session);
  session.payment_intent = null;
  session.setup_intent = null;
  return { kind: 'error', message: 'We are unable to authenticate your payment method.' };
}

function invoiceIntent(ctx: SandboxContext, invoiceId: string | null): Stripe.PaymentIntent | undefined {
  const link = [...ctx.store.invoicePayments.values()].find((p) => p.invoice === invoiceId);
  return link ? ctx.store.paymentIntents.get(String(link.payment.payment_intent)) : undefined;
}

function authenticate(
  ctx: SandboxContext,
  session: Stripe.Checkout.Session,
  intent: Stripe.PaymentIntent | Stripe.SetupIntent,
): CheckoutOutcome {
  const back = `${ctx.store.publicUrl}/_sandbox/checkout/${session.id}/authenticated`;
  return {
    kind: 'authenticate',
    redirect: `${authenticationUrl(ctx, intent)}&return_url=${encodeURIComponent(back)}`,
  };
}

/** The session's customer, made now if it has none (always in subscription and setup mode). */
function customerFor(ctx: SandboxContext, session: Stripe.Checkout.Session): string | null {
  const { store } = ctx;
  if (typeof session.customer === 'string') return session.customer;
  if (session.mode === 'payment') return null;
  const customer = makeCustomer(store.now(), {
    email: session.customer_email,
    name: null,
    description: null,
    phone: null,
    metadata: {},
  });
  store.customers.set(customer.id, customer);
  ctx.events.emit('customer.created', customer);
  session.customer = customer.id;
  return customer.id;
}

function complete(ctx: SandboxContext, session: Stripe.Checkout.Session): CheckoutOutcome {
  const customer =
    typeof session.customer === 'string' ? ctx.store.customers.get(session.customer) : undefined;
  session.status = 'complete';
  session.url = null;
  if (session.mode !== 'setup')
    session.payment_status =
      session.amount_total === 0 || isTrial(ctx, session) ? 'no_payment_required' : 'paid';
  session.customer_details = {
    address: null,
    email: customer?.email ?? session.customer_email,
    name: customer?.name ?? null,
    phone: null,
    tax_exempt: 'none',
    tax_ids: [],
    business_name: null,
    individual_name: null,
  } as unknown as Stripe.Checkout.Session.CustomerDetails;
  ctx.events.emit('checkout.session.completed', session);
  return { kind: 'complete', redirect: session.success_url!.replaceAll('{CHECKOUT_SESSION_ID}', session.id) };
}

function isTrial(ctx: SandboxContext, session: Stripe.Checkout.Session): boolean {
  const sub = session.subscription ? ctx.store.subscriptions.get(String(session.subscription)) : undefined;
  return sub?.status === 'trialing';
}
