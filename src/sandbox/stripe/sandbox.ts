import type { Server } from 'node:http';
import { serve } from '@hono/node-server';
import type { Hono } from 'hono';
import type Stripe from 'stripe';
import { TestClock } from '../../core/clock.js';
import { runDue } from './billing-cycle.js';
import type { SandboxContext } from './context.js';
import { type SandboxCoupon, type SandboxPlan, seedCoupon, seedPlan } from './resources/catalog.js';
import type { SandboxEnv } from './respond.js';
import { createSandboxApp, type RequestLogEntry } from './server.js';
import { type SandboxClock, SandboxStore } from './store.js';
import { EventBus, type WebhookDelivery, type WebhookTarget } from './webhooks.js';

export interface StripeSandboxOptions {
  /** Defaults to a `TestClock` at the current time, so `advance()` works. */
  clock?: SandboxClock;
  plans?: SandboxPlan[];
  coupons?: SandboxCoupon[];
  webhook?: WebhookTarget;
}

export interface RunningStripeSandbox {
  /** `http://host:port`, to pass to the SDK as host/port/protocol. */
  url: string;
  host: string;
  port: number;
  close(): Promise<void>;
}

export interface StripeSandbox {
  /** The Hono app's fetch: use it in-process, or `listen()` for a real socket. */
  fetch(request: Request): Promise<Response>;
  readonly app: Hono<SandboxEnv>;
  listen(port?: number, host?: string): Promise<RunningStripeSandbox>;
  /** Process everything due at the clock's time: trial ends, renewals, retries, period-end cancellations. */
  runDue(): Promise<number>;
  /** Move the clock (a `TestClock`, or any clock with `advance(ms)`) by `seconds`, then `runDue()`. */
  advance(seconds: number): Promise<number>;
  setWebhook(url: string | null, secret?: string): void;
  redeliver(eventId: string): Promise<WebhookDelivery>;
  /** Every API request received, oldest first. */
  readonly requests: RequestLogEntry[];
  /** Every webhook delivery attempt, oldest first. */
  readonly deliveries: WebhookDelivery[];
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
  const clock = options.clock ?? new TestClock();
  const store = new SandboxStore(clock);
  const events = new EventBus(store, options.webhook ?? null);
  const ctx: SandboxContext = { store, events };
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
    const movable = clock as SandboxClock & { advance?: (ms: number) => unknown };
    if (typeof movable.advance !== 'function') {
      throw new Error('Stripe sandbox: advance() needs a clock with advance(ms), such as TestClock');
    }
    movable.advance(seconds * 1000);
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
    listen: (port = 0, host = '127.0.0.1') =>
      new Promise((resolve) => {
        const server = serve({ fetch: app.fetch, port, hostname: host }, (info) => {
          resolve({
            url: `http://${host}:${info.port}`,
            host,
            port: info.port,
            close: () =>
              new Promise<void>((done, fail) => {
                (server as Server).closeAllConnections?.();
                server.close((error) => (error ? fail(error) : done()));
              }),
          });
        });
      }),
    runDue: due,
    advance,
    setWebhook: (url, secret) => events.setTarget(url ? { url, secret: secret ?? '' } : null),
    redeliver: (eventId) => events.redeliver(eventId),
    requests,
    deliveries: events.deliveries,
    store,
    clock,
    events: (type) => [...store.events.values()].filter((e) => type === undefined || e.type === type),
  };
}
