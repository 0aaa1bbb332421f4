import type { BillingEdition, CouponConfig, PlanConfig } from '../../src/billing/config.js';
import type { WebhookController } from '../../src/billing/index.js';
import type { TestClock } from '../../src/core/clock.js';
import type { DeepPartial, TollgateConfig } from '../../src/core/config.js';

/** Stripe's "subscription status after all retries fail"; Braintree cancels or leaves it past due. */
export type FailedPaymentOutcome = 'cancel' | 'unpaid' | 'past_due';

/**
 * What the shared billing suite (`billing.case.ts`) needs of an edition. Everything that differs
 * between Stripe and Braintree lives here; the suite itself never asks which edition it runs.
 */
export interface EditionHarness {
  edition: BillingEdition;
  /** Must equal the provider's `capabilities` (the suite checks). */
  capabilities: { supportsQuantities: boolean; supportsPaypal: boolean; amountUnit: 'minor' | 'major' };
  /** The catalog seeded into the sandbox and the app config. Amounts in config are in the edition's unit. */
  plans: {
    /** A monthly plan without a default trial. */
    monthly: PlanConfig;
    /** Another monthly plan, for swaps. */
    other: PlanConfig;
    /** A yearly plan. */
    yearly: PlanConfig;
  };
  /** A percent-off coupon, applied to every charge of the subscription. */
  coupon: CouponConfig & { percentOff: number };
  /** The monthly plan's price in minor units (to check totals and payments). */
  monthlyMinor: number;
  otherMinor: number;
  yearlyMinor: number;
  tokens: {
    /** Attaches and pays. */
    card: string;
    /** Attaches and pays; a different brand/last four than `card`. */
    otherCard: string;
    /** Refused when attached or first charged. */
    declined: string;
    /** Attaches; every later charge fails. */
    failsLater: string;
    /** A PayPal account (editions with `supportsPaypal`). */
    paypal?: string;
    /** Attaches; its first payment waits for the customer's 3-D Secure (`IncompletePayment`). */
    threeDSecure: string;
  };
  /**
   * What the customer's browser does with a payment's `actionUrl`: passes the bank's challenge (the
   * sandbox's page). Answers the verification the app completes the payment with (Braintree: the
   * verified nonce), or null when the provider completes it itself (Stripe).
   */
  authenticate(actionUrl: string): Promise<string | null>;
  /** What the user record stores for `tokens.card` / `tokens.otherCard`. */
  cardOf: { card: { brand: string; lastFour: string }; otherCard: { brand: string; lastFour: string } };
  /** `amount` minor units in the edition's `charge()` unit (Stripe: as is; Braintree: /100). */
  toEditionAmount(minor: number): number;
  /** The route and controller the app declares for webhooks. */
  webhook: {
    path: string;
    controller: typeof WebhookController;
    /**
     * An event the sandbox delivers when `newSubscription(...).create(card)` succeeds with a first
     * payment (Stripe: `invoice.payment_succeeded`); the suite counts handler runs on it.
     */
    paidEvent: string;
    /** The event that says the provider gave up on a subscription after failed retries. */
    failedTerminalEvent: string;
    /** Events whose subscription state the default receiver applies to the local row. */
    syncedEvents: string[];
    /** The event that reports a subscription's new state (Stripe: updated; Braintree: went past due). */
    stateEvent: string;
  };
  /** Days after a failed renewal by which the provider has exhausted its retries. */
  retryWindowDays: number;
  /** The provider's settings for a subscription whose retries all failed, as this edition offers them. */
  failedPaymentOutcomes: FailedPaymentOutcome[];
  startSandbox(options: {
    clock: TestClock;
    plans: PlanConfig[];
    coupons: CouponConfig[];
    currency: string;
    /** A metered price to seed: Stripe a metered price on a `sum` Billing Meter, Braintree an add-on. */
    metered?: MeteredSeed;
    /** After the last retry fails (default `cancel`). */
    failedPaymentOutcome?: FailedPaymentOutcome;
  }): Promise<EditionSandbox>;
}

/** A metered price as a test seeds it: `id` (the price or add-on id), per-unit minor units. */
export interface MeteredSeed {
  id: string;
  name: string;
  unitMinor: number;
}

/** One running sandbox of the edition, sharing the test's clock. */
export interface EditionSandbox {
  /** The `billing` config that points the app's provider at this sandbox (edition, credentials, apiBase). */
  config: DeepPartial<TollgateConfig['billing']>;
  /** Deliver webhooks here from now on. */
  setWebhook(url: string): void;
  /**
   * Move the shared clock and run everything due (trial ends, renewals, retries), then wait until
   * the webhooks that caused are delivered (or given up).
   */
  advanceDays(days: number): Promise<void>;
  /** Waits until every webhook delivery scheduled so far is done or given up (realistic delivery). */
  settled(): Promise<void>;
  /** The seed of the sandbox's realistic delivery (set `SANDBOX_WEBHOOK_SEED` to replay a run). */
  readonly seed: number;
  /** Money the provider collected or tried to collect from a customer, oldest first, in minor units. */
  payments(customerId: string): Promise<Array<{ amount: number; succeeded: boolean }>>;
  /** The subscription at the provider: plan, quantity, and whether it is trialing/cancelled. */
  subscription(id: string): Promise<{
    plan: string;
    quantity: number | null;
    status: string;
    /** Braintree: the add-ons and their quantities. */
    addOns?: Record<string, number>;
  } | null>;
  /**
   * Lifts a cancellation at period end at the provider itself (its dashboard), bypassing the app:
   * Stripe `cancel_at_period_end: false`; Braintree unlimited billing cycles again.
   */
  resumeAtProvider(id: string): Promise<void>;
  /** Every customer and subscription the provider holds (to prove a double submit made one of each). */
  counts(): { customers: number; subscriptions: number };
  /** Webhook deliveries so far, oldest first. */
  deliveries(): Array<{ eventId: string; type: string; status: number | null; subject: string | null }>;
  /** The webhook request for `eventId`, correctly signed, to post by hand (concurrent deliveries). */
  signed(eventId: string): { body: string; headers: Record<string, string> };
  redeliver(eventId: string): Promise<{ status: number | null }>;
  /** A webhook request for `eventId` signed with a wrong secret (`null`: without any signature). */
  forged(eventId: string, signature: 'wrong' | 'missing'): { body: string; headers: Record<string, string> };
  close(): Promise<void>;
}

/** Said when a test fails under realistic delivery: the seed that replays its shuffles and duplicates. */
export function reportSeed(edition: string, sandbox: Pick<EditionSandbox, 'seed'> | undefined): void {
  if (sandbox)
    console.error(
      `${edition} sandbox webhook delivery seed: ${sandbox.seed} (replay: SANDBOX_WEBHOOK_SEED=${sandbox.seed})`,
    );
}
