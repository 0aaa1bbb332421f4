import type Stripe from 'stripe';
import { StripeSandboxError } from '../objects/errors.js';
import { makeInvoice } from '../objects/invoices.js';
import { currentPeriod, nextPeriod } from './billing-cycle.js';
import type { SandboxContext } from './context.js';
import { addLines, buildSubscriptionInvoice, itemLine, pendingItems } from './invoice-builder.js';
import type { Params } from './params.js';

function noUpcoming(): StripeSandboxError {
  return new StripeSandboxError(404, {
    type: 'invalid_request_error',
    code: 'invoice_upcoming_none',
    message: 'No upcoming invoices for customer',
  });
}

/**
 * `POST /v1/invoices/create_preview` (https://docs.stripe.com/api/invoices/create_preview):
 * the subscription's next invoice — at the trial's end or the period's end — with pending
 * items, discounts and taxes; nothing is stored. Without a subscription: the pending items.
 */
export function previewInvoice(ctx: SandboxContext, p: Params): Stripe.Invoice {
  const { store } = ctx;
  const subId = p.str('subscription');
  if (subId) {
    const sub = store.subscription(subId);
    const customer = p.str('customer');
    if (customer && sub.customer !== customer)
      throw StripeSandboxError.noSuch('subscription', subId, 'subscription');
    const live = sub.status === 'active' || sub.status === 'trialing' || sub.status === 'past_due';
    if (!live || sub.cancel_at_period_end) throw noUpcoming();
    const trialing = sub.status === 'trialing' && sub.trial_end !== null;
    const start = trialing && sub.trial_end ? sub.trial_end : currentPeriod(sub).end;
    const period = nextPeriod(sub, start);
    const invoice = buildSubscriptionInvoice(ctx, sub, {
      reason: 'upcoming',
      period,
      includeItems: true,
      trial: false,
      preview: true,
      // The usage so far of the running period (a trial's usage is not billed).
      usage: trialing ? undefined : currentPeriod(sub),
    });
    invoice.created = start;
    invoice.next_payment_attempt = start;
    return invoice;
  }
  const customer = store.customer(p.required('customer'));
  const items = pendingItems(ctx, customer.id);
  if (items.length === 0) throw noUpcoming();
  const now = store.now();
  const invoice = makeInvoice(now, {
    id: `upcoming_in_${customer.id}`,
    customer: customer.id,
    currency: items[0]!.currency,
    billing_reason: 'upcoming',
    customer_email: customer.email,
    customer_name: customer.name ?? null,
  });
  addLines(ctx, invoice, items.map(itemLine), true);
  return invoice;
}
