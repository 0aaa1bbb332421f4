import type Stripe from 'stripe';
import { BillingError } from '../../errors.js';
import type { UsageReport } from '../payment-gateway.js';
import { stripeCall } from './errors.js';

/** What a meter event for a metered price must say: its meter's event name and payload keys. */
interface MeterTarget {
  eventName: string;
  customerKey: string;
  valueKey: string;
}

/**
 * Usage on the current API (https://docs.stripe.com/billing/subscriptions/usage-based): a metered
 * price bills what its Billing Meter aggregates, and usage arrives as meter events. The report's
 * `identifier` is the meter event's identifier, so a report sent again counts once (Stripe keeps
 * identifiers for at least 24 hours).
 */
export class StripeUsage {
  /** Price id → its meter: a price's meter never changes. */
  readonly #targets = new Map<string, MeterTarget>();

  constructor(private readonly stripe: Stripe) {}

  async report(report: UsageReport): Promise<void> {
    if (report.increment === 0) return;
    const target = await this.#target(report.price);
    await this.#ensureItem(report.subscriptionId, report.price);
    // No idempotency key: a report sent again later carries a later timestamp, which the same key
    // would refuse; the identifier is what Stripe dedups meter events by.
    await stripeCall(() =>
      this.stripe.billing.meterEvents.create({
        event_name: target.eventName,
        identifier: report.identifier,
        timestamp: Math.floor(report.timestamp.getTime() / 1000),
        payload: {
          [target.customerKey]: report.customerId,
          [target.valueKey]: String(report.increment),
        },
      }),
    );
  }

  async #target(priceId: string): Promise<MeterTarget> {
    const known = this.#targets.get(priceId);
    if (known) return known;
    const price = await stripeCall(() => this.stripe.prices.retrieve(priceId));
    const meterId = price.recurring?.usage_type === 'metered' ? price.recurring.meter : null;
    if (!meterId)
      throw BillingError.provider(`Stripe: price ${priceId} is not a metered price with a Billing Meter.`);
    const meter = await stripeCall(() => this.stripe.billing.meters.retrieve(meterId));
    const target = {
      eventName: meter.event_name,
      customerKey: meter.customer_mapping.event_payload_key,
      valueKey: meter.value_settings.event_payload_key,
    };
    this.#targets.set(priceId, target);
    return target;
  }

  /** The metered price joins the subscription on first use; adding it prorates nothing. */
  async #ensureItem(subscriptionId: string, priceId: string): Promise<void> {
    const sub = await stripeCall(() => this.stripe.subscriptions.retrieve(subscriptionId));
    if (sub.items.data.some((item) => item.price.id === priceId)) return;
    await stripeCall(() =>
      this.stripe.subscriptions.update(
        subscriptionId,
        { items: [{ price: priceId }], proration_behavior: 'none' },
        { idempotencyKey: `metered-item-${subscriptionId}-${priceId}` },
      ),
    );
  }
}
