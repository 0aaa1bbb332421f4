import type { Application } from '../kernel/application.js';
import { Metrics } from '../observability/metrics.js';
import { InvoicePaid } from './invoices/invoice-paid.js';
import { PaymentActionRequired } from './payments/payment-action-required.js';
import { PaymentFailed } from './payments/payment-failed.js';

/** With metrics on, counts the payments the provider's webhooks report, by outcome (once per event). */
export function countPayments(app: Application): void {
  if (!app.container.has(Metrics)) return;
  const payments = app.container.make(Metrics).payments;
  app.events.listen(InvoicePaid, () => void payments.inc({ outcome: 'succeeded' }));
  app.events.listen(PaymentFailed, () => void payments.inc({ outcome: 'failed' }));
  app.events.listen(PaymentActionRequired, () => void payments.inc({ outcome: 'requires_action' }));
}
