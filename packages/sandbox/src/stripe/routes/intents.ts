import type { Hono } from 'hono';
import type Stripe from 'stripe';
import type { SandboxContext } from '../domain/context.js';
import { settleInvoiceIntent } from '../domain/invoice-lifecycle.js';
import type { Params } from '../domain/params.js';
import { cancelPaymentIntent, confirmPaymentIntent, paymentIntentError } from '../domain/payment-intents.js';
import { attachedTo, resolvePaymentMethod } from '../domain/payment-methods.js';
import { confirmSetupIntent } from '../domain/setup-intents.js';
import { assertChargeable } from '../objects/currency.js';
import { StripeSandboxError } from '../objects/errors.js';
import { makePaymentIntent, makeSetupIntent } from '../objects/intents.js';
import { respond, respondList, type SandboxEnv } from './respond.js';

/** SetupIntents and PaymentIntents (https://docs.stripe.com/api/setup_intents, /api/payment_intents). */
export function registerIntents(app: Hono<SandboxEnv>, ctx: SandboxContext): void {
  const { store, events } = ctx;

  /** The PaymentMethod a request names: a test id makes a new one; the customer's own must be attached to it. */
  const paymentMethodOf = (p: Params, customer: string | null): string | null => {
    const id = p.str('payment_method');
    if (!id) return null;
    if (id.startsWith('pm_card_')) return resolvePaymentMethod(ctx, id, 'payment_method').id;
    const pm = store.paymentMethod(id);
    if (customer && pm.customer) attachedTo(ctx, id, customer, 'payment_method');
    return pm.id;
  };

  app.post('/v1/setup_intents', (c) => {
    const p = c.get('params');
    const customer = p.str('customer') ? store.customer(p.required('customer')).id : null;
    const si = makeSetupIntent(store.now(), {
      customer,
      usage: p.str('usage') ?? 'off_session',
      description: p.str('description') ?? null,
      metadata: p.metadata() ?? {},
    });
    store.setupIntents.set(si.id, si);
    events.emit('setup_intent.created', si);
    const pm = paymentMethodOf(p, customer);
    if (pm && p.bool('confirm'))
      confirmSetupIntent(ctx, si, store.paymentMethod(pm), p.str('return_url') ?? null);
    else if (pm) {
      si.payment_method = pm;
      si.status = 'requires_confirmation';
    }
    return respond(c, store, si);
  });

  app.get('/v1/setup_intents/:id', (c) => respond(c, store, store.setupIntent(c.req.param('id'))));

  app.post('/v1/setup_intents/:id/confirm', (c) => {
    const p = c.get('params');
    const si = store.setupIntent(c.req.param('id'));
    const customer = typeof si.customer === 'string' ? si.customer : null;
    const pm =
      paymentMethodOf(p, customer) ?? (typeof si.payment_method === 'string' ? si.payment_method : null);
    if (!pm) throw StripeSandboxError.missingParam('payment_method');
    confirmSetupIntent(ctx, si, store.paymentMethod(pm), p.str('return_url') ?? null);
    return respond(c, store, si);
  });

  app.post('/v1/payment_intents', (c) => {
    const p = c.get('params');
    const amount = p.int('amount');
    if (amount === undefined) throw StripeSandboxError.missingParam('amount');
    if (amount < 50)
      throw StripeSandboxError.invalid('Amount must be at least 50 cents', 'amount', 'amount_too_small');
    assertChargeable(amount, p.required('currency'));
    const customer = p.str('customer') ? store.customer(p.required('customer')).id : null;
    const pi = makePaymentIntent(store.now(), {
      amount,
      currency: p.required('currency').toLowerCase(),
      customer,
      paymentMethod: paymentMethodOf(p, customer),
      description: p.str('description') ?? null,
      metadata: p.metadata() ?? {},
      receiptEmail: p.str('receipt_email') ?? null,
    });
    store.paymentIntents.set(pi.id, pi);
    events.emit('payment_intent.created', pi);
    if (p.bool('confirm')) confirm(pi, p);
    return respond(c, store, pi);
  });

  app.get('/v1/payment_intents', (c) => {
    const customer = c.get('params').str('customer');
    const all = [...store.paymentIntents.values()].filter((pi) => !customer || pi.customer === customer);
    return respondList(c, store, all, '/v1/payment_intents');
  });

  app.get('/v1/payment_intents/:id', (c) => respond(c, store, store.paymentIntent(c.req.param('id'))));

  app.post('/v1/payment_intents/:id/confirm', (c) => {
    const p = c.get('params');
    const pi = store.paymentIntent(c.req.param('id'));
    const pm = paymentMethodOf(p, typeof pi.customer === 'string' ? pi.customer : null);
    if (pm) pi.payment_method = pm;
    confirm(pi, p);
    // An invoice's PaymentIntent (`default_incomplete`) pays its invoice when confirmed.
    settleInvoiceIntent(ctx, pi);
    return respond(c, store, pi);
  });

  app.post('/v1/payment_intents/:id/cancel', (c) => {
    const pi = store.paymentIntent(c.req.param('id'));
    const reason = c.get('params').str('cancellation_reason') ?? null;
    cancelPaymentIntent(ctx, pi, reason as Stripe.PaymentIntent.CancellationReason | null);
    return respond(c, store, pi);
  });

  app.get('/v1/invoice_payments', (c) => {
    const p = c.get('params');
    const invoice = p.str('invoice');
    const intent = p.object('payment')?.str('payment_intent');
    const all = [...store.invoicePayments.values()].filter(
      (ip) => (!invoice || ip.invoice === invoice) && (!intent || ip.payment.payment_intent === intent),
    );
    return respondList(c, store, all, '/v1/invoice_payments');
  });

  /** A failed on-session payment answers 402 with the PaymentIntent inside, as the API does. */
  function confirm(pi: Stripe.PaymentIntent, p: Params): void {
    confirmPaymentIntent(ctx, pi, {
      presence: p.bool('off_session') ? 'off_session' : 'on_session',
      returnUrl: p.str('return_url') ?? null,
    });
    if (pi.status === 'requires_payment_method' && pi.last_payment_error) throw paymentIntentError(pi);
  }
}
