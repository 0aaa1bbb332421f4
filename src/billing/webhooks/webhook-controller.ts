import type { Context } from 'hono';
import type { Binding } from '../../core/container.js';
import { LoggerKey } from '../../core/keys.js';
import type { Logger } from '../../core/logger.js';
import {
  type GatewaySubscription,
  type PaymentGateway,
  PaymentGatewayKey,
  type SubscriptionSync,
} from '../gateway/payment-gateway.js';
import { endedStatus } from '../subscriptions/provider-status.js';
import { WebhookEvents } from './webhook-events.js';
import { runWebhookSteps, type WebhookHandler, type WebhookStep, webhookPipeline } from './webhook-steps.js';
import { WebhookSubscriptions } from './webhook-subscriptions.js';

/** `invoice.payment_succeeded` → `handleInvoicePaymentSucceeded`; `dispute_opened` → `handleDisputeOpened`. */
export function handlerName(eventName: string): string {
  const studly = eventName
    .split(/[._\s-]+/)
    .filter(Boolean)
    .map((part) => part.charAt(0).toUpperCase() + part.slice(1).toLowerCase())
    .join('');
  return `handle${studly}`;
}

/**
 * The billing webhook receiver (spec, "Webhook receiver" and "Events"). `handle` runs
 * `webhookPipeline` (src/billing/webhooks/webhook-steps.ts), each step a named function:
 * 1. `verify`: the payment gateway checks the signature — a bad or missing one is 400 and nothing runs;
 * 2. `record`: what the gateway keeps of the event itself (`event.record`; idempotent), 500 if it fails;
 * 3. `route`: `handle` + CamelCase(event name), if the class has it — an event nothing acts on is 200;
 * 4. `claim`: in one transaction, claims the event id and applies the subscription state it names,
 *    if any (`event.sync`: the provider's current object, fetched; not when the event is older than
 *    the row's state), or stores the subscription a completed Checkout Session made — a duplicate
 *    delivery is 200 and nothing runs again;
 * 5. `keepCheckoutCard`, then `retryUnknown`: a subscription with no row yet is 503 and nothing is
 *    recorded, so the provider retries;
 * 6. `dispatch`: calls the handler with the payload; one that throws is 500 (the provider retries)
 *    and the claim is released.
 *
 * Applications extend it and add `handleXxx(payload)` methods; `steps` may be overridden to add a
 * step of their own (`[...webhookPipeline.slice(0, 1), myStep, ...webhookPipeline.slice(1)]`).
 */
export class WebhookController {
  /** Subclasses may append their own dependencies (and constructor parameters) after these four. */
  static inject: readonly Binding[] = [PaymentGatewayKey, WebhookEvents, WebhookSubscriptions, LoggerKey];

  constructor(
    protected readonly gateway: PaymentGateway,
    protected readonly events: WebhookEvents,
    protected readonly subscriptions: WebhookSubscriptions,
    protected readonly logger: Logger,
  ) {}

  /** @deprecated The old name of `gateway`. */
  protected get provider(): PaymentGateway {
    return this.gateway;
  }

  /** The steps `handle` runs, in order. */
  protected get steps(): readonly WebhookStep[] {
    return webhookPipeline;
  }

  handle(c: Context): Promise<Response> {
    return runWebhookSteps(c, this.steps, {
      gateway: this.gateway,
      events: this.events,
      providerUpdates: this.subscriptions.providerUpdates,
      checkoutAdoptions: this.subscriptions.checkoutAdoptions,
      logger: this.logger,
      handlerFor: (eventName) => {
        const handler = (this as unknown as Record<string, WebhookHandler | undefined>)[
          handlerName(eventName)
        ];
        return typeof handler === 'function' ? handler.bind(this) : undefined;
      },
      currentState: (sync) => this.currentState(sync),
    });
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
   * shares (`endedByProvider`: now, unless already cancelled), and raises `SubscriptionCancelled`.
   * Returns how many changed.
   */
  protected async cancelSubscription(providerSubscriptionId: string): Promise<number> {
    const { providerUpdates } = this.subscriptions;
    const changed = await providerUpdates.markEndedByProvider(providerSubscriptionId);
    await providerUpdates.announceEndedByProvider(providerSubscriptionId);
    return changed;
  }
}

/**
 * For an event that named only its subscription: an ended one is applied as ended; a live one with
 * no row yet is retried (its creating call is storing it); one that never became live is acknowledged.
 */
function stubRules(current: GatewaySubscription): Pick<SubscriptionSync, 'ended' | 'whenUnknown'> {
  const ended = endedStatus(current.status);
  const live = ['active', 'trialing', 'past_due', 'unpaid'].includes(current.status);
  return { ended, whenUnknown: live ? 'retry' : 'acknowledge' };
}
