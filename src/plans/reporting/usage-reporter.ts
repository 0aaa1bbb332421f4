import { createHash } from 'node:crypto';
import type { Users } from '../../auth/users.js';
import type { BillableUser } from '../../billing/billable-user.js';
import type { BillingLock } from '../../billing/billing-lock.js';
import { BillingError } from '../../billing/errors.js';
import type { PaymentGateway } from '../../billing/gateway/payment-gateway.js';
import type { SubscriptionRepository } from '../../billing/subscriptions/subscription-repository.js';
import type { Clock } from '../../core/clock.js';
import type { PlanMeteredPrice } from '../config.js';
import type { UsageLedger } from '../metering/usage-ledger.js';
import type { PlanCatalog } from '../plan.js';
import type { PlanResolver } from '../plan-resolver.js';
import type { ReportedUsageStore, ReportKey } from './reported-usage.js';

const DAY_MS = 86_400_000;

/** A UTC day as the aggregates key it: `YYYY-MM-DD`. */
const dayOf = (at: Date): string => at.toISOString().slice(0, 10);

export interface UsageReporterDeps {
  gateway: PaymentGateway;
  catalog: PlanCatalog;
  resolver: PlanResolver;
  subscriptions: SubscriptionRepository;
  users: Users;
  lock: BillingLock;
  store: ReportedUsageStore;
  clock: Clock;
  /** `plans.subscription`: the subscription (by name) whose plan bills the usage. */
  subscription: string;
  /** The daily aggregates (`UsageLedger`): units of a meter on the days `from` to `to`, both included. */
  ledger: Pick<UsageLedger, 'totals'>;
}

/** What one run did for one user. */
export interface UsageReportLine {
  userId: number;
  plan: string | null;
  meter: string | null;
  /** The billing period the usage belongs to (ISO-8601), when there is one. */
  periodStart: string | null;
  /** Every unit of the period so far, and how many the provider had before this run. */
  total: number;
  previously: number;
  /** Units sent now (0 when the provider already had them all). */
  sent: number;
  status: 'reported' | 'up_to_date' | 'skipped' | 'failed';
  /** Why a user was skipped, or what failed (the next run tries again). */
  reason?: string;
}

export interface UsageReportOptions {
  /** Report usage up to this instant (default: now); days after it are left for a later run. */
  until?: Date;
  /** Only this user (skipped, with the reason, when not on a metered plan). */
  userId?: number;
}

/**
 * One report's identifier: user, meter, period and running total, so a report sent again carries
 * the same one. Stripe takes at most 100 characters: a longer one (a long meter name) is hashed.
 */
function identifierOf(userId: number, meter: string, periodStart: Date, total: number): string {
  const plain = `tollgate-usage-${userId}-${meter}-${Math.floor(periodStart.getTime() / 1000)}-${total}`;
  return plain.length <= 100 ? plain : `tollgate-usage-${createHash('sha256').update(plain).digest('hex')}`;
}

function failed(userId: number, err: unknown): UsageReportLine {
  const reason = err instanceof Error ? err.message : String(err);
  return { ...nothing(userId, null), status: 'failed', reason };
}

function nothing(userId: number, plan: string | null): Omit<UsageReportLine, 'status'> {
  return { userId, plan, meter: null, periodStart: null, total: 0, previously: 0, sent: 0 };
}

/**
 * Reports metered usage to the payment provider from the daily aggregates: per user on a plan with
 * a metered price, the units of the current billing period not reported yet. Idempotent — a run
 * sends only the increment over what `usage_reports` says the provider has, under the
 * user's billing lock (one reporter per user across instances), and a total is marked pending
 * before it is sent, so a run cut short sends it again under the same identifier, counted once.
 * The mark is a compare-and-set on what the run read: a run whose lock lapsed while it stalled
 * sends nothing once another run has moved the record on.
 */
export class UsageReporter {
  constructor(private readonly deps: UsageReporterDeps) {}

  async report(options: UsageReportOptions = {}): Promise<UsageReportLine[]> {
    const { gateway, catalog, subscriptions, clock } = this.deps;
    if (!gateway.capabilities.supportsUsageReporting || !gateway.reportUsage)
      throw BillingError.unsupportedByEdition('Usage reporting', gateway.capabilities.edition);
    const until = options.until ?? clock.now();
    const billingPlans = [...catalog.byBillingPlan].filter(([, plan]) => plan.metered).map(([id]) => id);
    const userIds =
      options.userId !== undefined
        ? [options.userId]
        : await subscriptions.userIdsOn(this.deps.subscription, billingPlans, until);
    const lines: UsageReportLine[] = [];
    for (const userId of userIds) {
      // One user's failure (the provider refused, the lock was busy) does not stop the others.
      lines.push(await this.reportUser(userId, until).catch((err: unknown) => failed(userId, err)));
    }
    return lines;
  }

  async reportUser(userId: number, until: Date): Promise<UsageReportLine> {
    const { resolver, subscriptions, users, gateway } = this.deps;
    const skipped = (reason: string, plan: string | null = null): UsageReportLine => ({
      ...nothing(userId, plan),
      status: 'skipped',
      reason,
    });
    const standing = await resolver.standing(userId);
    const metered = standing.plan.metered;
    if (!metered || standing.state === 'free' || standing.state === 'lapsed')
      return skipped('not on a plan with a metered price', standing.plan.name);
    const record = await subscriptions.findByName(userId, this.deps.subscription);
    const user = await users.find<BillableUser>(userId);
    const customerId = user?.[gateway.capabilities.columns.customerId];
    const remote = record && customerId ? await gateway.findSubscription(record.providerId) : null;
    if (!record || !customerId || !remote?.currentPeriodStart || !remote.currentPeriodEnd)
      return skipped('no current billing period at the provider', standing.plan.name);
    const period = { start: remote.currentPeriodStart, end: remote.currentPeriodEnd };
    return this.deps.lock.forUser(userId, () =>
      this.#send({
        userId,
        customerId,
        subscriptionId: remote.id,
        plan: standing.plan.name,
        metered,
        period,
        until,
      }),
    );
  }

  async #send(job: {
    userId: number;
    customerId: string;
    subscriptionId: string;
    plan: string;
    metered: PlanMeteredPrice;
    period: { start: Date; end: Date };
    until: Date;
  }): Promise<UsageReportLine> {
    const { store, gateway } = this.deps;
    const { userId, metered, period, until } = job;
    const key: ReportKey = { userId, meter: metered.meter, periodStart: period.start.toISOString() };
    // Whole days of the period up to `until` (the aggregates are daily): the renewal day opens the new period.
    const last = dayOf(new Date(Math.min(period.end.getTime() - DAY_MS, until.getTime())));
    const total = await this.deps.ledger.totals({
      userId,
      meter: metered.meter,
      from: dayOf(period.start),
      to: last,
    });
    const state = await store.read(key);
    // What this run last knew of the record: it sends a new total only if no other run moved it since.
    let seen = state;
    let reported = state.reported;
    const previously = reported;
    // Inside the period, whatever `until` says: the provider bills usage by its timestamp.
    const at = new Date(
      Math.max(period.start.getTime(), Math.min(until.getTime(), period.end.getTime() - 1000)),
    );
    const deliver = async (next: number) => {
      await gateway.reportUsage!({
        customerId: job.customerId,
        subscriptionId: job.subscriptionId,
        price: metered.price,
        increment: next - reported,
        total: next,
        unitAmount: metered.unitAmount,
        timestamp: at,
        identifier: identifierOf(userId, metered.meter, period.start, next),
      });
      await store.confirm(key, next);
      reported = next;
      seen = { reported: next, pending: null };
    };
    if (state.pending !== null && state.pending > reported) await deliver(state.pending);
    if (total > reported) {
      if (!(await store.pend(key, total, seen))) throw BillingError.requestInProgress();
      await deliver(total);
    }
    return {
      userId,
      plan: job.plan,
      meter: metered.meter,
      periodStart: key.periodStart,
      total: Math.max(total, reported),
      previously,
      sent: reported - previously,
      status: reported > previously ? 'reported' : 'up_to_date',
    };
  }
}
