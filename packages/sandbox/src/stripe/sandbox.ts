import type { Hono } from 'hono';
import type Stripe from 'stripe';
import { ManualClock, moveClock, type SandboxClock } from '../shared/clock.js';
import type { DeliveryMode, DeliveryOptions, WebhookDeliveryControl } from '../shared/delivery.js';
import { type ListeningSandbox, listen } from '../shared/listen.js';
import { runDue } from './domain/billing-cycle.js';
import { type SandboxCoupon, type SandboxPlan, seedCoupon, seedPlan } from './domain/catalog.js';
import type { FailedPaymentOutcome, SandboxContext } from './domain/context.js';
import { EventBus, type WebhookDelivery, type WebhookTarget } from './domain/webhooks.js';
import { createSandboxApp, type RequestLogEntry } from './routes/app.js';
import type { SandboxEnv } from './routes/respond.js';
import { SandboxStore } from './store/store.js';

export interface StripeSandboxOptions {
  /** Defaults to a `ManualClock` at the current time, so `advance()` works. */
  clock?: SandboxClock;
  plans?: SandboxPlan[];
  coupons?: SandboxCoupon[];
  webhook?: WebhookTarget;
  /** After the last retry of a renewal fails: `'cancel'` (default), `'unpaid'` or `'past_due'`. */
  failedPaymentOutcome?: FailedPaymentOutcome;
  /** How webhooks are delivered: `'realistic'` (default: async, shuffled, duplicated, retried) or `'ordered'`. */
  delivery?: DeliveryMode | DeliveryOptions;
}

export interface StripeSandbox {
  /** The Hono app's fetch: use it in-process, or `listen()` for a real socket. */
  fetch(request: Request): Promise<Response>;
  readonly app: Hono<SandboxEnv>;
  listen(port?: number, host?: string): Promise<ListeningSandbox>;
  /** Process everything due at the clock's time: trial ends, renewals, retries, period-end cancellations. */
  runDue(): Promise<number>;
  /** Move the clock (a `ManualClock`, or any clock with `advance(ms)`) by `seconds`, then `runDue()`. */
  advance(seconds: number): Promise<number>;
  setWebhook(url: string | null, secret?: string): void;
  redeliver(eventId: string): Promise<WebhookDelivery>;
  /** Every API request received, oldest first. */
  readonly requests: RequestLogEntry[];
  /** Every webhook delivery attempt, oldest first. */
  readonly deliveries: WebhookDelivery[];
  /** The delivery mode and seed; `await sandbox.webhooks.settled()` waits until every delivery is done or given up. */
  readonly webhooks: WebhookDeliveryControl;
  /** The sandbox's state (plain Stripe objects). Read it; change it only through the API. */
  readonly store: SandboxStore;
  readonly clock: SandboxClock;
  /** Events of one type (or all), oldest first. */
  events(type?: string): Stripe.Event[];
}

/**
 * A local, stateful server for the subset of the Stripe API that Tollgate's Stripe adapter
 * uses, driven by the official SDK pointed at it (`host`, `port`, `protocol: 'http'`).
 *
 * @example
 * const sandbox = createStripeSandbox({ plans: [{ id: 'monthly', amount: 1000, interval: 'month' }] });
 * const { port, close } = await sandbox.listen();
 * const stripe = new Stripe('sk_test_x', { host: '127.0.0.1', port, protocol: 'http', maxNetworkRetries: 0 });
 */
export function createStripeSandbox(options: StripeSandboxOptions = {}): StripeSandbox {
  const clock = options.clock ?? new ManualClock();
  const store = new SandboxStore(clock);
  const events = new EventBus(store, options.webhook ?? null, options.delivery);
  const ctx: SandboxContext = { store, events, failedPaymentOutcome: options.failedPaymentOutcome };
  for (const plan of options.plans ?? []) seedPlan(ctx, plan);
  for (const coupon of options.coupons ?? []) seedCoupon(ctx, coupon);
  const requests: RequestLogEntry[] = [];

  // One runDue at a time (an embedding app may tick it on a timer while a test or route calls it).
  let queue: Promise<unknown> = Promise.resolve();
  const due = (): Promise<number> => {
    const run = queue.then(() => runDue(ctx));
    queue = run.catch(() => undefined);
    return run;
  };
  const advance = async (seconds: number) => {
    if (!moveClock(clock, seconds * 1000)) {
      throw new Error('Stripe sandbox: advance() needs a clock with advance(ms), such as ManualClock');
    }
    return due();
  };
  const app = createSandboxApp(ctx, requests, {
    advance,
    runDue: due,
    state: () => ({ now: store.clockSeconds(), ...store.snapshot(), deliveries: events.deliveries }),
  });

  return {
    app,
    fetch: async (request) => app.fetch(request),
    listen: (port, host) => listen(app.fetch, port, host),
    runDue: due,
    advance,
    setWebhook: (url, secret) => events.setTarget(url ? { url, secret: secret ?? '' } : null),
    redeliver: (eventId) => events.redeliver(eventId),
    requests,
    deliveries: events.deliveries,
    webhooks: events.scheduler,
    store,
    clock,
    events: (type) => [...store.events.values()].filter((e) => type === undefined || e.type === type),
  };
}
