import type { Context } from 'hono';
import type { Logger } from '../../core/logger.js';
import { currentRequest } from '../../core/request-context.js';
import { SampledWarning } from '../../core/sampled-log.js';
import { traced } from '../../core/tracing.js';
import { BillingError } from '../errors.js';
import type { PaymentGateway, SubscriptionSync, WebhookEvent } from '../gateway/payment-gateway.js';
import type { CheckoutAdoption, CheckoutAdoptions } from '../subscriptions/checkout-adoption.js';
import type { ProviderUpdates } from '../subscriptions/provider-updates.js';
import type { ClaimOutcome, WebhookEvents } from './webhook-events.js';
import { processedWebhook } from './webhook-outcome.js';

export type WebhookHandler = (payload: unknown, event: WebhookEvent) => unknown;

/** One webhook request as it moves through the steps; each step fills in what the next one reads. */
export interface WebhookDelivery {
  readonly c: Context;
  event: WebhookEvent;
  /** The controller's `handle` + CamelCase(event name), when it has one. */
  handler: WebhookHandler | undefined;
  /** The Checkout Session's subscription to store, read before the claim's transaction. */
  checkout: CheckoutAdoption | null;
  outcome: ClaimOutcome;
  /** Set by the step that answers; the steps after it do not run. */
  response?: Response;
}

/** What the steps use: the controller's services, its handlers and its `currentState`. */
export interface WebhookParts {
  readonly gateway: PaymentGateway;
  readonly events: WebhookEvents;
  /** The provider's reports applied to the subscription rows. */
  readonly providerUpdates: ProviderUpdates;
  /** The subscription a completed Checkout Session made, stored as the user's. */
  readonly checkoutAdoptions: CheckoutAdoptions;
  readonly logger: Logger;
  handlerFor(eventName: string): WebhookHandler | undefined;
  currentState(sync: SubscriptionSync): Promise<SubscriptionSync | undefined>;
}

export type WebhookStep = (delivery: WebhookDelivery, parts: WebhookParts) => void | Promise<void>;

/** Anyone can post an unsigned webhook: a flood is logged a line a minute, with its count. */
const refusals = new SampledWarning('billing webhook refused');

const failed = (d: WebhookDelivery) => d.c.json({ message: 'Webhook handler failed.' }, 500);

/** The gateway checks the signature and parses the event: a bad or missing one is 400, and nothing runs. */
async function verify(d: WebhookDelivery, { gateway, logger }: WebhookParts): Promise<void> {
  const body = await d.c.req.text();
  const headers = d.c.req.raw.headers;
  const form = (headers.get('content-type') ?? '').includes('application/x-www-form-urlencoded')
    ? Object.fromEntries(new URLSearchParams(body))
    : undefined;
  try {
    d.event = await gateway.parseWebhook({ body, headers, form });
    // What the event changes, the provider did: the audit log names it so.
    const request = currentRequest();
    if (request) request.actor = 'webhook';
  } catch (err) {
    if (!(err instanceof BillingError)) throw err;
    refusals.log(logger, { reason: err.message });
    d.response = d.c.json({ message: 'Invalid webhook signature.' }, 400);
  }
}

/** What the gateway keeps of the event itself (`event.record`, idempotent); 500 if it fails. */
async function record(d: WebhookDelivery, { logger }: WebhookParts): Promise<void> {
  if (!d.event.record) return;
  try {
    await d.event.record();
  } catch (err) {
    logger.error({ err, event: d.event.id, type: d.event.name }, 'billing webhook record failed');
    d.response = failed(d);
  }
}

/** The controller's handler for the event; an event nothing acts on is 200 `handled: false`. */
function route(d: WebhookDelivery, parts: WebhookParts): void {
  d.handler = parts.handlerFor(d.event.name);
  if (d.handler === undefined && !d.event.sync && !d.event.checkoutSessionId)
    d.response = d.c.json({ received: true, handled: false });
}

/**
 * In one transaction: claims the event id (a duplicate delivery is 200 and nothing runs again),
 * stores a completed Checkout Session's subscription, and applies the subscription state the
 * event names as the provider has it now (not when the event is older than the row's state).
 */
async function claim(d: WebhookDelivery, parts: WebhookParts): Promise<void> {
  const { event } = d;
  const { providerUpdates, checkoutAdoptions, logger } = parts;
  try {
    // The session as it is now, read before the claim's transaction opens (no network inside it).
    const checkout = event.checkoutSessionId
      ? await checkoutAdoptions.checkoutToAdopt(event.checkoutSessionId)
      : null;
    d.checkout = checkout;
    d.outcome = await parts.events.claimAndApply(
      parts.gateway.capabilities.edition,
      event.id,
      event.name,
      async (db) => {
        if (checkout && !(await checkoutAdoptions.adoptCheckout(db, checkout))) {
          // Another live subscription holds the name: left for `billing:reconcile` to report.
          logger.error(
            { event: event.id, subscription: checkout.subscription.id, user: checkout.user.id },
            'Checkout subscription not stored: the user already has a live one with that name',
          );
        }
        if (!event.sync) return true;
        // Read the provider's state with the rows locked: an API answer stored meanwhile (a swap)
        // waits, and lands after this, never under it.
        await providerUpdates.lockProviderRows(db, event.sync.subscription.id);
        const sync = await parts.currentState(event.sync);
        if (!sync) return true;
        return (await providerUpdates.applyProviderState(db, sync)) || sync.whenUnknown === 'acknowledge';
      },
    );
  } catch (err) {
    logger.error({ err, event: event.id, type: event.name }, 'billing webhook sync failed');
    d.response = failed(d);
    return;
  }
  if (d.outcome === 'duplicate') d.response = d.c.json({ received: true, duplicate: true });
}

/** A stored Checkout subscription's card becomes the customer's default too (a failure is only logged). */
async function keepCheckoutCard(d: WebhookDelivery, parts: WebhookParts): Promise<void> {
  const { checkoutAdoptions, logger } = parts;
  if (!d.checkout) return;
  try {
    await checkoutAdoptions.keepCheckoutCard(d.checkout);
  } catch (err) {
    // The subscription is stored; the card stays on the subscription alone at the provider.
    logger.warn({ err, event: d.event.id }, 'billing webhook could not keep the Checkout card');
  }
}

/** A subscription with no row yet: 503 and nothing recorded, so the provider delivers it again. */
function retryUnknown(d: WebhookDelivery, { logger }: WebhookParts): void {
  if (d.outcome !== 'unknown') return;
  // By the next delivery, the call that created it has stored it.
  logger.warn({ event: d.event.id, type: d.event.name }, 'billing webhook for a subscription not stored yet');
  d.response = d.c.json({ message: 'Subscription not known yet; retry later.' }, 503);
}

/** The controller's handler with the payload; one that throws is 500 and the claim is released (retried). */
async function dispatch(d: WebhookDelivery, { events, gateway, logger }: WebhookParts): Promise<void> {
  if (d.handler !== undefined) {
    try {
      await d.handler(d.event.payload, d.event);
    } catch (err) {
      await events.release(gateway.capabilities.edition, d.event.id);
      logger.error({ err, event: d.event.id, type: d.event.name }, 'billing webhook handler failed');
      d.response = failed(d);
      return;
    }
  }
  d.response = d.c.json({ received: true, handled: true });
}

/** The webhook receiver's steps, in order (like the token endpoint's `tokenPipeline`). */
export const webhookPipeline: readonly WebhookStep[] = [
  verify,
  record,
  route,
  claim,
  keepCheckoutCard,
  retryUnknown,
  dispatch,
];

/** Runs `steps` until one answers, in a span named by the event once it is verified. */
export function runWebhookSteps(
  c: Context,
  steps: readonly WebhookStep[],
  parts: WebhookParts,
): Promise<Response> {
  const edition = parts.gateway.capabilities.edition;
  return traced('billing webhook', { attributes: { 'tollgate.payment.provider': edition } }, async (span) => {
    const delivery = { c, handler: undefined, checkout: null } as WebhookDelivery;
    let threw = true;
    try {
      for (const step of steps) {
        await step(delivery, parts);
        if (delivery.response !== undefined) break;
      }
      threw = false;
      return delivery.response ?? c.json({ received: true, handled: true });
    } finally {
      parts.events.processed(processedWebhook(delivery, threw));
      if (span && delivery.event) {
        span.updateName(`billing webhook ${delivery.event.name}`);
        span.setAttributes({
          'tollgate.webhook.type': delivery.event.name,
          'tollgate.webhook.id': delivery.event.id,
        });
      }
      if (span && delivery.response) span.setAttribute('http.response.status_code', delivery.response.status);
    }
  });
}
