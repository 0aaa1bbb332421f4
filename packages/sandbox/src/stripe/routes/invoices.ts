import type { Hono } from 'hono';
import type { SandboxContext } from '../domain/context.js';
import { addLines, itemLine, pendingItems } from '../domain/invoice-builder.js';
import { attemptPayment, finalizeInvoice, voidInvoice } from '../domain/invoice-lifecycle.js';
import { previewInvoice } from '../domain/invoice-preview.js';
import { mergeMetadata } from '../domain/params.js';
import { paymentIntentError } from '../domain/payment-intents.js';
import { attachPaymentMethod, resolvePaymentMethod } from '../domain/payment-methods.js';
import { subscriptionOf } from '../domain/subscription-state.js';
import { StripeSandboxError } from '../objects/errors.js';
import { makeInvoice } from '../objects/invoices.js';
import { respond, respondList, type SandboxEnv } from './respond.js';

/** Stripe finalizes an auto-advancing draft an hour after creation. */
const AUTO_FINALIZE_SECONDS = 3600;

/** Invoices (https://docs.stripe.com/api/invoices). */
export function registerInvoices(app: Hono<SandboxEnv>, ctx: SandboxContext): void {
  const { store, events } = ctx;

  // Registered before `/v1/invoices/:id`, which would otherwise match it.
  app.post('/v1/invoices/create_preview', (c) => respond(c, store, previewInvoice(ctx, c.get('params'))));

  app.post('/v1/invoices', (c) => {
    const p = c.get('params');
    const customer = store.customer(p.required('customer'));
    const subscription = p.str('subscription');
    if (subscription) store.subscription(subscription);
    const now = store.now();
    const autoAdvance = p.bool('auto_advance') ?? false;
    const collection = (p.str('collection_method') ?? 'charge_automatically') as
      | 'charge_automatically'
      | 'send_invoice';
    const include = (p.str('pending_invoice_items_behavior') ?? 'exclude') === 'include';
    const pending = include ? pendingItems(ctx, customer.id, subscription) : [];
    const invoice = makeInvoice(now, {
      customer: customer.id,
      // Stripe bills pending items in their own currency (the customer's, once it has one).
      currency: p.str('currency') ?? customer.currency ?? pending[0]?.currency ?? 'usd',
      auto_advance: autoAdvance,
      automatically_finalizes_at: autoAdvance ? now + AUTO_FINALIZE_SECONDS : null,
      collection_method: collection,
      customer_email: customer.email,
      customer_name: customer.name ?? null,
      description: p.str('description') ?? null,
      metadata: p.metadata() ?? {},
      default_tax_rates: p.strings('default_tax_rates').map((id) => store.taxRate(id)),
      parent: subscription
        ? {
            type: 'subscription_details',
            quote_details: null,
            subscription_details: { metadata: null, subscription },
          }
        : null,
    });
    addLines(ctx, invoice, pending.map(itemLine));
    store.invoices.set(invoice.id, invoice);
    events.emit('invoice.created', invoice);
    return respond(c, store, invoice);
  });

  app.get('/v1/invoices', (c) => {
    const p = c.get('params');
    const customer = p.str('customer');
    const status = p.str('status');
    const subscription = p.str('subscription');
    const invoices = [...store.invoices.values()].filter(
      (i) =>
        (!customer || i.customer === customer) &&
        (!status || i.status === status) &&
        (!subscription || subscriptionOf(i) === subscription),
    );
    return respondList(c, store, invoices, '/v1/invoices');
  });

  app.get('/v1/invoices/:id', (c) => respond(c, store, store.invoice(c.req.param('id'), 'id')));

  app.get('/v1/invoices/:id/lines', (c) => {
    const invoice = store.invoice(c.req.param('id'), 'id');
    return respondList(c, store, [...invoice.lines.data].reverse(), `/v1/invoices/${invoice.id}/lines`);
  });

  app.post('/v1/invoices/:id', (c) => {
    const p = c.get('params');
    const invoice = store.invoice(c.req.param('id'), 'id');
    const autoAdvance = p.bool('auto_advance');
    if (autoAdvance !== undefined && (invoice.status === 'draft' || invoice.status === 'open')) {
      invoice.auto_advance = autoAdvance;
      if (invoice.status === 'draft')
        invoice.automatically_finalizes_at = autoAdvance ? store.now() + AUTO_FINALIZE_SECONDS : null;
      if (!autoAdvance) invoice.next_payment_attempt = null;
    }
    if (p.has('description')) invoice.description = p.str('description') || null;
    if (p.has('metadata')) invoice.metadata = mergeMetadata(invoice.metadata ?? {}, p.raw.metadata);
    events.emit('invoice.updated', invoice);
    return respond(c, store, invoice);
  });

  app.delete('/v1/invoices/:id', (c) => {
    const invoice = store.invoice(c.req.param('id'), 'id');
    if (invoice.status !== 'draft') throw StripeSandboxError.invalid('You can only delete draft invoices.');
    for (const item of store.invoiceItems.values()) if (item.invoice === invoice.id) item.invoice = null;
    store.invoices.delete(invoice.id);
    events.emit('invoice.deleted', invoice);
    return c.json({ id: invoice.id, object: 'invoice', deleted: true });
  });

  app.post('/v1/invoices/:id/finalize', (c) => {
    const p = c.get('params');
    const invoice = store.invoice(c.req.param('id'), 'id');
    const autoAdvance = p.bool('auto_advance');
    if (autoAdvance !== undefined) invoice.auto_advance = autoAdvance;
    finalizeInvoice(ctx, invoice);
    return respond(c, store, invoice);
  });

  app.post('/v1/invoices/:id/pay', (c) => {
    const p = c.get('params');
    const invoice = store.invoice(c.req.param('id'), 'id');
    if (invoice.status === 'paid')
      throw StripeSandboxError.invalid('Invoice is already paid', undefined, 'invoice_already_paid');
    if (p.bool('paid_out_of_band')) {
      if (invoice.status === 'draft') finalizeInvoice(ctx, invoice);
      invoice.status = 'paid';
      invoice.amount_remaining = 0;
      invoice.next_payment_attempt = null;
      invoice.status_transitions.paid_at = store.now();
      store.retries.delete(invoice.id);
      events.emit('invoice.paid', invoice);
      return respond(c, store, invoice);
    }
    const pmParam = p.str('payment_method');
    const pm = pmParam ? resolvePaymentMethod(ctx, pmParam, 'payment_method') : undefined;
    if (pm && !pm.customer) attachPaymentMethod(ctx, pm, String(invoice.customer));
    const outcome = attemptPayment(ctx, invoice, true, pm);
    if (!outcome.paid) {
      if (outcome.intent?.status === 'requires_action')
        throw StripeSandboxError.invoiceRequiresAction(outcome.intent);
      if (outcome.intent?.last_payment_error) throw paymentIntentError(outcome.intent);
      if (!outcome.charge) throw StripeSandboxError.noPaymentSource();
      throw StripeSandboxError.cardDeclined(outcome.charge.id);
    }
    return respond(c, store, invoice);
  });

  app.post('/v1/invoices/:id/void', (c) => {
    const invoice = store.invoice(c.req.param('id'), 'id');
    voidInvoice(ctx, invoice);
    return respond(c, store, invoice);
  });
}
