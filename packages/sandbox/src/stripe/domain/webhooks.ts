import { AsyncLocalStorage } from 'node:async_hooks';
import type Stripe from 'stripe';
import { type DeliveryOptions, DeliveryScheduler } from '../../shared/delivery.js';
import { postWebhook } from '../../shared/webhooks.js';
import { newId } from '../objects/ids.js';
import { signPayload } from '../objects/signature.js';
import { type SandboxStore, snapshot } from '../store/store.js';

/** The API version the SDK pins (`Stripe-Version`); events say which version shaped them. */
export const API_VERSION = '2026-10-28.endive';

/** A long-running sandbox keeps only the latest delivery attempts. */
const DELIVERY_LOG_LIMIT = 10_000;

export interface WebhookTarget {
  url: string;
  secret: string;
}

/** One attempt to deliver one event. */
export interface WebhookDelivery {
  eventId: string;
  type: string;
  url: string;
  status: number | null;
  ok: boolean;
  error: string | null;
  attempt: number;
  at: Date;
}

interface RequestContext {
  id: string;
  idempotencyKey: string | null;
}

/**
 * Records events and delivers them to the configured endpoint when flushed (at the end of each API
 * call and billing step): in order and awaited, or realistically (see `DeliveryMode`).
 */
export class EventBus {
  readonly deliveries: WebhookDelivery[] = [];
  readonly scheduler: DeliveryScheduler;
  readonly #pending: Stripe.Event[] = [];
  readonly #request = new AsyncLocalStorage<RequestContext>();
  #target: WebhookTarget | null;

  constructor(
    private readonly store: SandboxStore,
    target: WebhookTarget | null,
    delivery?: DeliveryOptions | DeliveryScheduler['mode'],
  ) {
    this.#target = target;
    this.scheduler = new DeliveryScheduler(delivery);
  }

  setTarget(target: WebhookTarget | null): void {
    this.#target = target;
  }

  /** Run an API call so events it causes carry its request id and idempotency key. */
  withRequest<T>(idempotencyKey: string | null, fn: () => Promise<T>): Promise<T> {
    return this.#request.run({ id: newId('req'), idempotencyKey }, fn);
  }

  emit(type: Stripe.Event.Type, object: object, previous?: Record<string, unknown>): Stripe.Event {
    const request = this.#request.getStore();
    const data: Stripe.Event.Data = { object: snapshot(object) };
    if (previous) data.previous_attributes = snapshot(previous);
    const event = {
      id: newId('evt'),
      object: 'event',
      api_version: API_VERSION,
      created: this.store.now(),
      data,
      livemode: false,
      pending_webhooks: this.#target ? 1 : 0,
      request: request
        ? { id: request.id, idempotency_key: request.idempotencyKey }
        : { id: null, idempotency_key: null },
      type,
    } as Stripe.Event;
    this.store.events.set(event.id, event);
    this.#pending.push(event);
    return event;
  }

  /** Deliver every pending event: in order awaiting each, or scheduled (realistic mode). */
  async flush(): Promise<void> {
    const events = this.#pending.splice(0);
    const target = this.#target;
    if (!target) return;
    // To the endpoint configured when the event happened, retries included.
    await this.scheduler.dispatch(events.map((event) => async () => (await this.deliver(event, target)).ok));
  }

  /** Send an event again (for a receiver that failed the first time). */
  async redeliver(eventId: string): Promise<WebhookDelivery> {
    const event = this.store.events.get(eventId);
    if (!event) throw new Error(`No such event: ${eventId}`);
    if (!this.#target) throw new Error('No webhook endpoint is configured');
    return this.deliver(event, this.#target);
  }

  private async deliver(event: Stripe.Event, target: WebhookTarget): Promise<WebhookDelivery> {
    const body = JSON.stringify(event, null, 2);
    const attempt = this.deliveries.filter((d) => d.eventId === event.id).length + 1;
    const at = new Date();
    const outcome = await postWebhook(target.url, {
      headers: {
        'content-type': 'application/json; charset=utf-8',
        'user-agent': 'Stripe/1.0 (+https://stripe.com/docs/webhooks)',
        'stripe-signature': signPayload(body, target.secret),
      },
      body,
    });
    const delivery: WebhookDelivery = {
      eventId: event.id,
      type: event.type,
      url: target.url,
      ...outcome,
      attempt,
      at,
    };
    if (delivery.ok) event.pending_webhooks = 0;
    this.deliveries.push(delivery);
    if (this.deliveries.length > DELIVERY_LOG_LIMIT)
      this.deliveries.splice(0, this.deliveries.length - DELIVERY_LOG_LIMIT);
    return delivery;
  }
}
