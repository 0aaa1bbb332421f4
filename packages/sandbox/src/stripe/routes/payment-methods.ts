import type { Hono } from 'hono';
import type { SandboxContext } from '../domain/context.js';
import { attachPaymentMethod, createPaymentMethod, resolvePaymentMethod } from '../domain/payment-methods.js';
import { StripeSandboxError } from '../objects/errors.js';
import { testCardByNumber } from '../objects/test-cards.js';
import { respond, respondList, type SandboxEnv } from './respond.js';

/** Card PaymentMethods (https://docs.stripe.com/api/payment_methods). */
export function registerPaymentMethods(app: Hono<SandboxEnv>, ctx: SandboxContext): void {
  const { store, events } = ctx;

  app.post('/v1/payment_methods', (c) => {
    const p = c.get('params');
    if (p.required('type') !== 'card') {
      throw StripeSandboxError.invalid('The sandbox supports card PaymentMethods only.', 'type');
    }
    // Raw numbers are accepted for the test cards only (Stripe accepts them in test mode).
    const card = p.object('card');
    const token = card?.str('token');
    const number = card?.str('number');
    const spec = number ? testCardByNumber(number) : undefined;
    if (token)
      return respond(c, store, resolvePaymentMethod(ctx, token.replace(/^tok_/, 'pm_card_'), 'card[token]'));
    if (!spec)
      throw StripeSandboxError.invalid('Your card number is incorrect.', 'card[number]', 'incorrect_number');
    return respond(c, store, createPaymentMethod(ctx, spec));
  });

  app.get('/v1/payment_methods', (c) => {
    const customer = c.get('params').required('customer');
    const all = [...store.paymentMethods.values()].filter((pm) => pm.customer === customer);
    return respondList(c, store, all, '/v1/payment_methods');
  });

  app.get('/v1/customers/:id/payment_methods', (c) => {
    const customer = store.customer(c.req.param('id'), 'customer').id;
    const all = [...store.paymentMethods.values()].filter((pm) => pm.customer === customer);
    return respondList(c, store, all, `/v1/customers/${customer}/payment_methods`);
  });

  app.get('/v1/payment_methods/:id', (c) => respond(c, store, store.paymentMethod(c.req.param('id'), 'id')));

  app.post('/v1/payment_methods/:id/attach', (c) => {
    const customer = store.customer(c.get('params').required('customer')).id;
    const pm = resolvePaymentMethod(ctx, c.req.param('id'), 'payment_method');
    return respond(c, store, attachPaymentMethod(ctx, pm, customer));
  });

  app.post('/v1/payment_methods/:id/detach', (c) => {
    const pm = store.paymentMethod(c.req.param('id'), 'payment_method');
    if (!pm.customer) {
      throw StripeSandboxError.invalid(
        'The payment method you provided is not attached to a customer so detachment is impossible.',
      );
    }
    const customer = store.customers.get(String(pm.customer));
    if (customer?.invoice_settings.default_payment_method === pm.id) {
      customer.invoice_settings.default_payment_method = null;
    }
    const previous = pm.customer;
    pm.customer = null;
    // As Stripe does: the customer it was detached from is in `previous_attributes`.
    events.emit('payment_method.detached', pm, { customer: previous });
    return respond(c, store, pm);
  });
}
