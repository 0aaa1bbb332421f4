import { moveClock, type SandboxClock, ShiftedClock } from '../shared/clock.js';
import {
  type DeliveryMode,
  type DeliveryOptions,
  DeliveryScheduler,
  type WebhookDeliveryControl,
} from '../shared/delivery.js';
import { type ListeningSandbox, listen } from '../shared/listen.js';
import type { Credentials, SandboxContext } from './domain/context.js';
import { DEFAULT_CREDENTIALS, DEFAULT_PLANS, DEFAULT_RETRY, withPlanCredit } from './domain/defaults.js';
import { runDue } from './domain/lifecycle.js';
import { deliver } from './domain/webhooks.js';
import { gatewayConfig, type SandboxGatewayConfig } from './gateway-config.js';
import { snapshot } from './objects/snapshot.js';
import { buildApp } from './routes/app.js';
import type { RecordedRequest, SandboxDiscount, SandboxPlan, WebhookDelivery } from './store/records.js';
import { SandboxStore } from './store/store.js';

export interface BraintreeSandboxOptions {
  /** Defaults to real time that `advance()` can shift; pass a `ManualClock` in tests. */
  clock?: SandboxClock;
  merchantId?: string;
  publicKey?: string;
  privateKey?: string;
  plans?: SandboxPlan[];
  /** A `plan-credit` discount is always added when missing. */
  discounts?: SandboxDiscount[];
  addOns?: SandboxDiscount[];
  webhook?: { url: string };
  /**
   * How the sandbox's own notifications are delivered: `'realistic'` (default: async, shuffled,
   * duplicated, retried on non-2xx) or `'ordered'` (in order, awaited, once). `notify()` always
   * delivers at once.
   */
  delivery?: DeliveryMode | DeliveryOptions;
  /**
   * Failed-charge policy: retried every `intervalDays`; after `attempts` failures in a row the
   * subscription is canceled (`outcome: 'cancel'`) or left Past Due (`'past_due'`). Default 3 / 5 / cancel.
   */
  retry?: { attempts?: number; intervalDays?: number; outcome?: 'cancel' | 'past_due' };
  /**
   * When `submitForSettlement` sales become `settled`: at the first `runDue`/`advance` on a later date
   * (default, like the real sandbox's daily batch), or at once.
   */
  settlement?: 'next-day' | 'immediate';
  /** The merchant account's currency (ISO 4217): one-off sales are made in it. Default USD. */
  currencyIsoCode?: string;
}

export interface BraintreeSandbox {
  readonly clock: SandboxClock;
  readonly credentials: Credentials;
  /** Live state: customers, paymentMethods, subscriptions, transactions, plans, discounts, addOns. */
  readonly store: SandboxStore;
  readonly requests: RecordedRequest[];
  /** One entry per delivery attempt (a notification not sent, with no URL set, has one with `status: null`). */
  readonly deliveries: WebhookDelivery[];
  /** The delivery mode and seed; `await sandbox.webhooks.settled()` waits until every delivery is done or given up. */
  readonly webhooks: WebhookDeliveryControl;
  fetch(request: Request): Promise<Response>;
  listen(port?: number, host?: string): Promise<ListeningSandbox>;
  runDue(): Promise<number>;
  advance(seconds: number): Promise<number>;
  notify(kind: string, subjectId: string, options?: { transactionId?: string }): Promise<WebhookDelivery>;
  setWebhook(url: string | null): void;
  /**
   * The customer revokes a vaulted PayPal account (cancels the billing agreement at PayPal): it no
   * longer pays, and `payment_method_revoked_by_customer` is sent (by the `delivery` mode).
   */
  revokePaymentMethod(token: string): Promise<void>;
  /** Makes a vaulted payment method decline (or approve again) from now on. */
  setDeclining(token: string, declines?: boolean): void;
  /** `{ environment, merchantId, publicKey, privateKey }` for `new braintree.BraintreeGateway(...)`. */
  gatewayConfig(listening: { host: string; port: number }): SandboxGatewayConfig;
  /** JSON-safe copy of the state, as `GET /_sandbox/state` returns it. */
  state(): ReturnType<typeof snapshot>;
}

/**
 * A local, stateful Braintree gateway speaking the SDK's wire format (JSON in, XML out).
 *
 * @example
 * const sandbox = createBraintreeSandbox({ clock: new ManualClock() });
 * const server = await sandbox.listen();
 * const gateway = new braintree.BraintreeGateway(gatewayConfig(sandbox, server));
 */
export function createBraintreeSandbox(options: BraintreeSandboxOptions = {}): BraintreeSandbox {
  const clock = options.clock ?? new ShiftedClock();
  const credentials: Credentials = {
    merchantId: options.merchantId ?? DEFAULT_CREDENTIALS.merchantId,
    publicKey: options.publicKey ?? DEFAULT_CREDENTIALS.publicKey,
    privateKey: options.privateKey ?? DEFAULT_CREDENTIALS.privateKey,
  };
  const store = new SandboxStore(
    clock,
    options.plans ?? DEFAULT_PLANS,
    withPlanCredit(options.discounts),
    options.addOns ?? [],
  );
  let webhookUrl: string | null = options.webhook?.url ?? null;
  const target = () => ({
    url: webhookUrl,
    publicKey: credentials.publicKey,
    privateKey: credentials.privateKey,
  });
  const scheduler = new DeliveryScheduler(options.delivery);
  const ctx: SandboxContext = {
    store,
    credentials,
    retry: { ...DEFAULT_RETRY, ...options.retry },
    settlement: options.settlement ?? 'next-day',
    currencyIsoCode: (options.currencyIsoCode ?? 'USD').toUpperCase(),
    notifySubscription: async (kind, s) => {
      await deliver(store, target(), kind, s.id, { scheduler });
    },
  };
  const advance = async (seconds: number) => {
    moveClock(clock, seconds * 1000);
    return runDue(ctx);
  };
  const app = buildApp(ctx, {
    advance,
    state: () => snapshot(store),
    settled: () => scheduler.settled(),
  });

  const sandbox: BraintreeSandbox = {
    clock,
    credentials,
    store,
    requests: store.requests,
    deliveries: store.deliveries,
    webhooks: scheduler,
    fetch: async (request) => app.fetch(request),
    listen: (port, host) => listen(app.fetch, port, host),
    runDue: () => runDue(ctx),
    advance,
    notify: (kind, subjectId, notifyOptions) => deliver(store, target(), kind, subjectId, notifyOptions),
    setWebhook: (url) => {
      webhookUrl = url;
    },
    revokePaymentMethod: async (token) => {
      const pm = store.paymentMethods.get(token);
      if (!pm) throw new Error(`No payment method ${token}`);
      pm.revokedAt = store.now();
      pm.updatedAt = pm.revokedAt;
      pm.declines = true;
      await deliver(store, target(), 'payment_method_revoked_by_customer', token, { scheduler });
    },
    setDeclining: (token, declines = true) => {
      const pm = store.paymentMethods.get(token);
      if (!pm) throw new Error(`No payment method ${token}`);
      pm.declines = declines;
    },
    state: () => snapshot(store),
    gatewayConfig: (listening) => gatewayConfig(sandbox, listening),
  };
  return sandbox;
}
