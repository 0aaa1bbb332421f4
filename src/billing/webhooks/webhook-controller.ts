import type { Context } from 'hono';
import type { Binding } from '../../core/container.js';
import { LoggerKey } from '../../core/keys.js';
import type { Logger } from '../../core/logger.js';
import { SampledWarning } from '../../core/sampled-log.js';
import { BillingError } from '../errors.js';
import {
  type GatewaySubscription,
  type PaymentGateway,
  PaymentGatewayKey,
  type SubscriptionSync,
  type WebhookEvent,
} from '../gateway/payment-gateway.js';
import { type CheckoutAdoption, Subscriptions } from '../subscriptions/subscriptions.js';
import { type ClaimOutcome, WebhookEvents } from './webhook-events.js';

/** `invoice.payment_succeeded` → `handleInvoicePaymentSucceeded`; `dispute_opened` → `handleDisputeOpened`. */
export function handlerName(eventName: string): string {
  const studly = eventName
    .split(/[._\s-]+/)
    .filter(Boolean)
    .map((part) => part.charAt(0).toUpperCase() + part.slice(1).toLowerCase())
    .join('');
  return `handle${studly}`;
}

type Handler = (payload: unknown, event: WebhookEvent) => unknown;

/** Anyone can post an unsigned webhook: a flood is logged a line a minute, with its count. */
const refusals = new SampledWarning('billing webhook refused');

/**
 * The billing webhook receiver (spec, "Webhook receiver" and "Events"). `handle`:
 * 1. verifies the request with the payment gateway — a bad or missing signature is 400 and nothing runs;
 *    then runs what the gateway keeps of the event itself (`event.record`; idempotent), 500 if it fails;
 * 2. in one transaction, claims the event id and applies the subscription state it names, if any
 *    (`event.sync`: the provider's current object, fetched; not when the event is older than the row's state),
 *    or stores the subscription a completed Checkout Session made (`event.checkoutSessionId`, read
 *    first) — a duplicate delivery is 200 and nothing runs
 *    again; a subscription with no row yet is 503 and nothing is recorded, so the provider retries;
 * 3. calls `handle` + CamelCase(event name) with the payload, if the class has it — unknown events are 200;
 * 4. a handler that throws is 500 (the provider retries) and the claim is released.
 *
 * Applications extend it and add `handleXxx(payload)` methods.
 */
export class WebhookController {
  /** Subclasses may append their own dependencies (and constructor parameters) after these four. */
  static inject: readonly Binding[] = [PaymentGatewayKey, WebhookEvents, Subscriptions, LoggerKey];

  constructor(
    protected readonly gateway: PaymentGateway,
    protected readonly events: WebhookEvents,
    protected readonly subscriptions: Subscriptions,
    protected readonly logger: Logger,
  ) {}

  /** @deprecated The old name of `gateway`. */
  protected get provider(): PaymentGateway {
    return this.gateway;
  }

  async handle(c: Context): Promise<Response> {
    const body = await c.req.text();
    const headers = c.req.raw.headers;
    const form = (headers.get('content-type') ?? '').includes('application/x-www-form-urlencoded')
      ? Object.fromEntries(new URLSearchParams(body))
      : undefined;
    let event: WebhookEvent;
    try {
      event = await this.gateway.parseWebhook({ body, headers, form });
    } catch (err) {
      if (!(err instanceof BillingError)) throw err;
      refusals.log(this.logger, { reason: err.message });
      return c.json({ message: 'Invalid webhook signature.' }, 400);
    }

    if (event.record) {
      try {
        await event.record();
      } catch (err) {
        this.logger.error({ err, event: event.id, type: event.name }, 'billing webhook record failed');
        return c.json({ message: 'Webhook handler failed.' }, 500);
      }
    }
    const edition = this.gateway.capabilities.edition;
    const method = handlerName(event.name);
    const handler = (this as unknown as Record<string, Handler | undefined>)[method];
    const { checkoutSessionId } = event;
    if (typeof handler !== 'function' && !event.sync && !checkoutSessionId) {
      return c.json({ received: true, handled: false });
    }
    let outcome: ClaimOutcome;
    let checkout: CheckoutAdoption | null = null;
    try {
      // The session as it is now, read before the claim's transaction opens (no network inside it).
      checkout = checkoutSessionId ? await this.subscriptions.checkoutToAdopt(checkoutSessionId) : null;
      outcome = await this.events.claimAndApply(edition, event.id, event.name, async (db) => {
        if (checkout && !(await this.subscriptions.adoptCheckout(db, checkout))) {
          // Another live subscription holds the name: left for `billing:reconcile` to report.
          this.logger.error(
            { event: event.id, subscription: checkout.subscription.id, user: checkout.user.id },
            'Checkout subscription not stored: the user already has a live one with that name',
          );
        }
        if (!event.sync) return true;
        // Read the provider's state with the rows locked: an API answer stored meanwhile (a swap)
        // waits, and lands after this, never under it.
        await this.subscriptions.lockProviderRows(db, event.sync.subscription.id);
        const sync = await this.currentState(event.sync);
        if (!sync) return true;
        return (await this.subscriptions.applyProviderState(db, sync)) || sync.whenUnknown === 'acknowledge';
      });
    } catch (err) {
      this.logger.error({ err, event: event.id, type: event.name }, 'billing webhook sync failed');
      return c.json({ message: 'Webhook handler failed.' }, 500);
    }
    if (outcome === 'duplicate') return c.json({ received: true, duplicate: true });
    if (checkout) {
      try {
        await this.subscriptions.keepCheckoutCard(checkout);
      } catch (err) {
        // The subscription is stored; the card stays on the subscription alone at the provider.
        this.logger.warn({ err, event: event.id }, 'billing webhook could not keep the Checkout card');
      }
    }
    if (outcome === 'unknown') {
      // Not recorded: the provider redelivers, and by then the call that created it has stored it.
      this.logger.warn(
        { event: event.id, type: event.name },
        'billing webhook for a subscription not stored yet',
      );
      return c.json({ message: 'Subscription not known yet; retry later.' }, 503);
    }
    if (typeof handler === 'function') {
      try {
        await handler.call(this, event.payload, event);
      } catch (err) {
        await this.events.release(edition, event.id);
        this.logger.error({ err, event: event.id, type: event.name }, 'billing webhook handler failed');
        return c.json({ message: 'Webhook handler failed.' }, 500);
      }
    }
    return c.json({ received: true, handled: true });
  }

  /**
   * The subscription as the provider has it now, in place of the event's copy: events arrive late,
   * twice and out of order, and several can share one timestamp, so the copy may be stale. A
   * subscription the provider ended keeps the event's final state (and its replacement, if any).
   */
  protected async currentState(sync: SubscriptionSync): Promise<SubscriptionSync | undefined> {
    if (sync.ended || sync.replacedBy) return sync;
    const current = await this.gateway.findSubscription(sync.subscription.id);
    // Only the id was known (an invoice's subscription): nothing to apply if the provider has none.
    if (sync.stub) return current ? { ...sync, subscription: current, ...stubRules(current) } : undefined;
    return current ? { ...sync, subscription: current } : sync;
  }

  /**
   * The provider ended this subscription: ends the local one(s) by the one rule every edition
   * shares (`endedByProvider`: now, unless already cancelled). Returns how many changed.
   */
  protected cancelSubscription(providerSubscriptionId: string): Promise<number> {
    return this.subscriptions.markEndedByProvider(providerSubscriptionId);
  }
}

/**
 * For an event that named only its subscription: an ended one is applied as ended; a live one with
 * no row yet is retried (its creating call is storing it); one that never became live is acknowledged.
 */
function stubRules(current: GatewaySubscription): Pick<SubscriptionSync, 'ended' | 'whenUnknown'> {
  const ended = current.status === 'canceled' || current.status === 'incomplete_expired';
  const live = ['active', 'trialing', 'past_due', 'unpaid'].includes(current.status);
  return { ended, whenUnknown: live ? 'retry' : 'acknowledge' };
}
