import type braintree from 'braintree';
import type { Clock } from '../../../core/clock.js';
import { BillingError, IncompletePayment } from '../../errors.js';
import type {
  CreateSubscriptionInput,
  GatewaySubscription,
  ResumeContext,
  SubscriptionChanges,
} from '../payment-gateway.js';
import { addDays, daysBetween, isoDate } from './dates.js';
import { braintreeCall, isNotFound, ok } from './errors.js';
import type { BraintreeHistory } from './history.js';
import { defaultMethod, inTrial, mapSubscription, taxAt } from './map.js';
import { type DiscountAdd, type Pricing, termsDescribe } from './pricing.js';
import { planCredit, unusedValue } from './proration.js';
import { completionId } from './sca.js';
import { ID_TAKEN, isLive, liveSuccessor, successorId } from './successors.js';
import type { BtCustomer, BtResult, BtSubscription, BtTransaction } from './types.js';

type Payload = Record<string, unknown>;

/**
 * Subscriptions the Cashier-Braintree way, over `subscription.create/update/cancel/find`. Whatever
 * prices a subscription stores the terms it priced it with (plan, tax rate), and each charge it
 * makes (a first payment, a swap's prorated charge) is frozen as an invoice at once.
 */
export class BraintreeSubscriptions {
  constructor(
    private readonly gateway: braintree.BraintreeGateway,
    private readonly pricing: Pricing,
    private readonly clock: Clock,
    private readonly history: BraintreeHistory,
  ) {}

  private get money() {
    return this.pricing.unit;
  }

  /** Stores `sub`'s terms and freezes the charges it made that `before` did not have. */
  private async issue(sub: BtSubscription, taxPercentage: number, before: BtTransaction[] = []) {
    const price = this.money.minor(sub.price);
    await this.history.saveTerms({ subscriptionId: sub.id, plan: sub.planId, price, taxPercentage });
    const seen = new Set(before.map((t) => t.id));
    const charges = (sub.transactions ?? []).filter((t) => !seen.has(t.id));
    if (charges.length === 0) return;
    const plan = await this.pricing.plan(sub.planId).catch(() => null);
    await this.history.issued(charges, taxAt(taxPercentage, plan?.name ?? null), sub.planId);
  }

  /**
   * A renewal Braintree reports (`subscription_charged_successfully`): its newest charge frozen
   * under the stored terms. Nothing when they are unknown or no longer describe the subscription
   * (the call that created it records its first charge itself; one re-priced elsewhere is mapped
   * from current terms). A failed write throws, so the notification is redelivered.
   */
  async recordRenewal(sub: BtSubscription | null | undefined): Promise<void> {
    if (!sub?.id) return;
    const terms = await this.history.terms(sub.id);
    if (!terms || !termsDescribe(terms, sub, this.money)) return;
    const newest = (sub.transactions ?? [])
      .filter((t) => t.type === 'sale')
      .sort((a, b) => Date.parse(b.createdAt) - Date.parse(a.createdAt))[0];
    if (!newest) return;
    const plan = await this.pricing.plan(sub.planId).catch(() => null);
    await this.history.issued([newest], taxAt(terms.taxPercentage, plan?.name ?? null), sub.planId, true);
  }

  /** The tax rate `sub` is billed at: the stored one while its terms still describe it. */
  async taxOf(sub: BtSubscription): Promise<number> {
    return this.pricing.taxOf(sub, await this.history.terms(sub.id));
  }

  private today(): string {
    return isoDate(this.clock.now());
  }

  async find(id: string): Promise<BtSubscription> {
    return braintreeCall(
      'subscription.find',
      async () => (await this.gateway.subscription.find(id)) as unknown as BtSubscription,
    );
  }

  async findOrNull(id: string): Promise<BtSubscription | null> {
    try {
      return await this.find(id);
    } catch (err) {
      if (isNotFound(err)) return null;
      throw err;
    }
  }

  /** The live subscription that replaced `id` by a swap across frequencies, if any (see `successors.ts`). */
  successor(id: string): Promise<BtSubscription | null> {
    return liveSuccessor(id, (next) => this.findOrNull(next));
  }

  /**
   * `id`, or the live subscription that replaced it when Braintree has it cancelled: a swap retried
   * after its local write failed goes on from where the provider is.
   */
  private async current(id: string): Promise<BtSubscription> {
    const sub = await this.find(id);
    return isLive(sub) ? sub : ((await this.successor(id)) ?? sub);
  }

  /** A trial until `trialEndsAt` as Braintree's day count; none when it ends today or earlier. */
  private trial(trialEndsAt: Date | null): Payload {
    const days = trialEndsAt ? daysBetween(this.today(), isoDate(trialEndsAt)) : 0;
    // trialPeriod is always explicit, so a trial the plan defines at Braintree never sneaks in.
    return days >= 1
      ? { trialPeriod: true, trialDuration: days, trialDurationUnit: 'day' }
      : { trialPeriod: false };
  }

  private async createRaw(payload: Payload): Promise<BtSubscription> {
    const result = (await braintreeCall('subscription.create', () =>
      this.gateway.subscription.create(payload as unknown as braintree.SubscriptionCreateRequest),
    )) as unknown as BtResult;
    return ok(result, 'subscription.create').subscription as BtSubscription;
  }

  async update(id: string, payload: Payload): Promise<BtSubscription> {
    const result = (await braintreeCall('subscription.update', () =>
      this.gateway.subscription.update(id, payload as unknown as braintree.SubscriptionUpdateRequest),
    )) as unknown as BtResult;
    return ok(result, 'subscription.update').subscription as BtSubscription;
  }

  private async cancelRaw(sub: BtSubscription): Promise<BtSubscription> {
    if (sub.status === 'Canceled' || sub.status === 'Expired') return sub;
    const result = (await braintreeCall('subscription.cancel', () =>
      this.gateway.subscription.cancel(sub.id),
    )) as unknown as BtResult;
    return ok(result, 'subscription.cancel').subscription as BtSubscription;
  }

  async create(input: CreateSubscriptionInput, customer: BtCustomer): Promise<GatewaySubscription> {
    const method = defaultMethod(customer);
    if (!method) throw BillingError.provider('Braintree: the customer has no payment method to bill.');
    const price = await this.pricing.priceWithTax(input.plan, input.taxPercentage);
    const discounts = input.coupon ? [this.pricing.couponDiscount(input.coupon, price)] : [];
    let sub: BtSubscription;
    try {
      sub = await this.createRaw({
        planId: input.plan,
        price: this.money.major(price),
        paymentMethodToken: method.token,
        ...this.trial(input.trialEndsAt),
        ...(discounts.length ? { discounts: { add: discounts } } : {}),
      });
    } catch (err) {
      if (!(err instanceof IncompletePayment)) throw err;
      return this.awaitingAuthentication(err, input, price);
    }
    await this.issue(sub, input.taxPercentage);
    return mapSubscription(sub, inTrial(sub) ? input.trialEndsAt : null);
  }

  /**
   * The first payment needs the customer's 3-D Secure: Braintree made no subscription. It is stored
   * here as `incomplete` under the id it will be created with once the customer has authenticated
   * (`start`), with the terms it was priced at.
   */
  private async awaitingAuthentication(
    err: IncompletePayment,
    input: CreateSubscriptionInput,
    price: number,
  ): Promise<GatewaySubscription> {
    const id = err.payment.subscriptionId ?? completionId(err.payment.id);
    await this.history.saveTerms({
      subscriptionId: id,
      plan: input.plan,
      price,
      taxPercentage: input.taxPercentage,
    });
    return {
      id,
      plan: input.plan,
      quantity: 1,
      status: 'incomplete',
      trialEndsAt: null,
      currentPeriodEnd: null,
      cancelAtPeriodEnd: false,
      endedAt: null,
      pendingPayment: err.payment,
    };
  }

  /** Whether a subscription with this id exists at Braintree (a completed payment made it). */
  async exists(id: string): Promise<boolean> {
    return (await this.findOrNull(id)) !== null;
  }

  /**
   * The subscription a declined first payment was for, paid with the nonce the customer verified
   * (3-D Secure): same plan, price and discounts, under the id its row holds.
   */
  async start(t: BtTransaction, nonce: string): Promise<void> {
    const id = completionId(t.id);
    const planId = t.planId ?? '';
    const terms = await this.history.terms(id);
    const tax = terms?.taxPercentage ?? 0;
    const price = terms?.price ?? (await this.pricing.priceWithTax(planId, tax));
    const discounts: DiscountAdd[] = (t.discounts ?? []).map((m) => ({
      inheritedFromId: m.inheritedFromId ?? m.id,
      amount: m.amount,
      ...(m.numberOfBillingCycles ? { numberOfBillingCycles: m.numberOfBillingCycles } : {}),
    }));
    const sub = await this.createRaw({
      id,
      planId,
      price: this.money.major(price),
      paymentMethodNonce: nonce,
      trialPeriod: false,
      ...(discounts.length ? { discounts: { add: discounts } } : {}),
    });
    await this.issue(sub, tax);
  }

  /**
   * Plan swap (same billing frequency: `subscription.update` with `prorateCharges`, as Cashier) or,
   * across frequencies or to end a trial now, a replacement subscription carrying the unused value
   * as `plan-credit`. Also re-prices for a new tax percentage.
   */
  async change(id: string, changes: SubscriptionChanges): Promise<GatewaySubscription> {
    if (changes.quantity !== undefined && changes.quantity !== 1) {
      throw BillingError.unsupportedByEdition('Subscription quantities', 'braintree');
    }
    const current = await this.current(id);
    const planId = changes.plan ?? current.planId;
    const tax = changes.taxPercentage ?? (await this.taxOf(current));
    const price = await this.pricing.priceWithTax(planId, tax);
    const [from, to] = await Promise.all([this.pricing.plan(current.planId), this.pricing.plan(planId)]);
    const endTrialNow = changes.trialEndsAt === null && inTrial(current);
    if (from.billingFrequency !== to.billingFrequency || endTrialNow) {
      // A replacement would leave the unpaid balance behind on the cancelled subscription; Braintree
      // refuses to re-price a past-due one in place, so this is refused the same way.
      if (current.status === 'Past Due')
        throw BillingError.subscriptionPastDue('change the plan or price of');
      const trialEndsAt = endTrialNow ? null : (changes.trialEndsAt ?? null);
      const credit = changes.prorate === false ? 0 : unusedValue(current, this.today(), this.money);
      return this.replace(current, { planId, price, tax, trialEndsAt, credit });
    }
    const coupons = this.pricing.couponUpdates(current, price);
    const swapping = changes.plan !== undefined;
    const sub = await this.update(current.id, {
      planId,
      price: this.money.major(price),
      // A swap also lifts a cancellation at period end (Cashier's neverExpires / null cycles); a
      // tax change alone leaves the cycles alone and applies from the next charge.
      ...(swapping ? { neverExpires: true, numberOfBillingCycles: null } : {}),
      ...(coupons.length ? { discounts: { update: coupons } } : {}),
      options: { prorateCharges: swapping && changes.prorate !== false },
    });
    await this.issue(sub, tax, current.transactions ?? []);
    return mapSubscription(sub, inTrial(sub) ? (changes.trialEndsAt ?? undefined) : null);
  }

  /** A new subscription in place of `current` (created first, so a decline leaves the old one running). */
  private async replace(
    current: BtSubscription,
    next: {
      planId: string;
      price: number;
      /** The tax rate `price` includes. */
      tax: number;
      trialEndsAt: Date | null;
      credit: number;
      firstBillingDate?: string;
    },
  ): Promise<GatewaySubscription> {
    const coupons = this.pricing.carriedCoupons(current, next.price);
    const recurring = next.price - this.pricing.couponTotal(coupons, current.discounts ?? []);
    const credit = planCredit(next.credit, recurring, this.money);
    const discounts: DiscountAdd[] = credit ? [...coupons, credit] : coupons;
    const trial = this.trial(next.trialEndsAt);
    const sub = await this.createSuccessor(current.id, {
      planId: next.planId,
      price: this.money.major(next.price),
      paymentMethodToken: current.paymentMethodToken,
      ...trial,
      ...(next.firstBillingDate && trial.trialPeriod === false
        ? { firstBillingDate: next.firstBillingDate }
        : {}),
      ...(discounts.length ? { discounts: { add: discounts } } : {}),
    });
    await this.issue(sub, next.tax);
    await this.cancelRaw(current);
    return mapSubscription(sub, inTrial(sub) ? next.trialEndsAt : null);
  }

  /**
   * Creates the replacement of `id` under its successor id; one an earlier attempt already made
   * (its cancel or the local write failed) is taken as it is, so a retry never bills twice.
   */
  private async createSuccessor(id: string, payload: Payload): Promise<BtSubscription> {
    const nextId = successorId(id);
    try {
      return await this.createRaw({ ...payload, id: nextId });
    } catch (err) {
      // A replacement's first payment would need the customer's 3-D Secure: the swap is refused
      // and the current subscription goes on (the confirmation page starts new subscriptions only).
      if (err instanceof IncompletePayment)
        throw BillingError.paymentFailed(
          'Your bank asks you to authenticate this payment (3-D Secure), which a change of billing interval cannot ask for: cancel, then subscribe to the new plan.',
          { providerCode: '2099' },
        );
      const code = err instanceof BillingError ? err.providerCode : undefined;
      const made = code === ID_TAKEN ? await this.findOrNull(nextId) : null;
      if (made && isLive(made)) return made;
      throw err;
    }
  }

  /**
   * `atPeriodEnd`: caps the billing cycles at the current one, so Braintree expires the subscription
   * when the paid period ends (Cashier-Braintree); in a trial nothing is paid, so it is cancelled now
   * and the grace period is the rest of the trial. Otherwise cancelled at once.
   */
  async cancel(id: string, atPeriodEnd: boolean): Promise<GatewaySubscription> {
    const current = await this.find(id);
    if (!atPeriodEnd || inTrial(current) || current.status === 'Pending') {
      const ended = await this.cancelRaw(current);
      return mapSubscription(ended);
    }
    return mapSubscription(
      await this.update(id, { numberOfBillingCycles: current.currentBillingCycle ?? 1 }),
    );
  }

  /**
   * Lifts a cancellation at period end: unlimited cycles again, no charge, same cycle. A subscription
   * Braintree already cancelled (a trial) is replaced by one that bills on the original date.
   */
  async resume(id: string, context: ResumeContext): Promise<GatewaySubscription> {
    const current = await this.find(id);
    if (current.status !== 'Canceled' && current.status !== 'Expired') {
      return mapSubscription(await this.update(id, { neverExpires: true, numberOfBillingCycles: null }));
    }
    const paidThrough = current.paidThroughDate ?? current.billingPeriodEndDate;
    const firstBillingDate = paidThrough ? addDays(paidThrough, 1) : undefined;
    return this.replace(current, {
      planId: context.plan,
      price: this.money.minor(current.price),
      tax: await this.taxOf(current),
      trialEndsAt: context.trialEndsAt,
      credit: 0,
      firstBillingDate: firstBillingDate && firstBillingDate > this.today() ? firstBillingDate : undefined,
    });
  }
}
