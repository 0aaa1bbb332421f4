import type { Application } from '../kernel/application.js';
import { AuditLog } from '../observability/audit/audit-log.js';
import { InvoicePaid } from './invoices/invoice-paid.js';
import { PaymentActionRequired } from './payments/payment-action-required.js';
import { PaymentFailed } from './payments/payment-failed.js';
import { SubscriptionChanged } from './subscriptions/subscription-changed.js';
import { SubscriptionCancelled } from './subscriptions/subscription-lifecycle.js';

/**
 * With the audit log on, records the subscription and payment changes: by the user (subscribe,
 * swap, cancel, resume) or by the provider's webhook (actor `webhook`). A webhook delivered twice
 * is handled once, so it is audited once.
 */
export function auditBillingEvents(app: Application): void {
  if (!app.container.has(AuditLog)) return;
  const audit = app.container.make(AuditLog);
  const { events } = app;
  events.listen(SubscriptionChanged, ({ userId, subscriptionId, plan, unchanged }) => {
    if (unchanged) return;
    audit.record({
      kind: 'subscription.changed',
      userId,
      subject: `subscription:${subscriptionId}`,
      details: { plan },
    });
  });
  events.listen(SubscriptionCancelled, ({ userId, subscriptionId, plan, endsAt, by }) => {
    audit.record({
      kind: 'subscription.cancelled',
      userId,
      subject: `subscription:${subscriptionId}`,
      details: { plan, ends_at: endsAt, by },
    });
  });
  events.listen(InvoicePaid, ({ userId, invoiceId }) => {
    audit.record({ kind: 'payment.succeeded', userId: userId ?? null, subject: `invoice:${invoiceId}` });
  });
  events.listen(PaymentFailed, ({ userId, reference }) => {
    audit.record({ kind: 'payment.failed', userId: userId ?? null, subject: `invoice:${reference}` });
  });
  events.listen(PaymentActionRequired, ({ userId, invoiceId }) => {
    audit.record({
      kind: 'payment.requires-action',
      userId: userId ?? null,
      subject: `invoice:${invoiceId}`,
    });
  });
}
