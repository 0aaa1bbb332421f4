import { createHash } from 'node:crypto';
import type { BillableStores } from '../../billing/billable-stores.js';
import type { BillableRef } from '../../billing/billable-user.js';
import type { BillingLock } from '../../billing/billing-lock.js';
import { BillingError } from '../../billing/errors.js';
import type { PaymentGateway } from '../../billing/gateway/payment-gateway.js';
import type { SubscriptionRepository } from '../../billing/subscriptions/subscription-repository.js';
import type { Clock } from '../../core/clock.js';
import type { PlanMeteredPrice } from '../config.js';
import type { UsageLedger } from '../metering/usage-ledger.js';
import type { PlanCatalog } from '../plan.js';
import { ORGANIZATION } from '../plan-holder.js';
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
  /** The billable models by type (users; organizations once that module registers them): their customer ids. */
  owners: Pick<BillableStores, 'find'>;
  lock: BillingLock;
  store: ReportedUsageStore;
  clock: Clock;
  /** `plans.subscription`: the subscription (by name) whose plan bills the usage. */
  subscription: string;
  /** The daily aggregates (`UsageLedger`): units of a meter on the days `from` to `to`, both included. */
  ledger: Pick<UsageLedger, 'totals'>;
}

/** What one run did for one subscriber: a user or an organization. */
export interface UsageReportLine {
  /** Who is billed: `{ type: 'user', id }` or `{ type: 'organization', id }`. */
  owner: BillableRef;
  /** The user's id; null for an organization (`owner` names it). */
  userId: number | null;
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
  /** Only this organization (as `userId`). */
  organizationId?: number;
}

/**
 * One report's identifier: owner, meter, period and running total, so a report sent again carries
 * the same one (a user's as before: `tollgate-usage-<id>-…`; an organization's `…-organization-<id>-…`).
 * Stripe takes at most 100 characters: a longer one (a long meter name) is hashed.
 */
function identifierOf(owner: BillableRef, meter: string, periodStart: Date, total: number): string {
  const who = owner.type === 'user' ? `${owner.id}` : `${owner.type}-${owner.id}`;
  const plain = `tollgate-usage-${who}-${meter}-${Math.floor(periodStart.getTime() / 1000)}-${total}`;
  return plain.length <= 100 ? plain : `tollgate-usage-${createHash('sha256').update(plain).digest('hex')}`;
}

function failed(owner: BillableRef, err: unknown): UsageReportLine {
  const reason = err instanceof Error ? err.message : String(err);
  return { ...nothing(owner, null), status: 'failed', reason };
}

function nothing(owner: BillableRef, plan: string | null): Omit<UsageReportLine, 'status'> {
  const userId = owner.type === 'user' ? owner.id : null;
  return { owner, userId, plan, meter: null, periodStart: null, total: 0, previously: 0, sent: 0 };
}

/**
 * Reports metered usage to the payment provider from the daily aggregates: per subscriber (a user,
 * or an organization: every billable owner) on a plan with a metered price, the units of the
 * current billing period not reported yet — a user's personal usage, an organization's usage by
 * all its keys and members. Idempotent — a run sends only the increment over what
 * `usage_reports` says the provider has, under the owner's billing lock (one reporter per owner
 * across instances), and a total is marked pending
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
    const owners: BillableRef[] =
      options.userId !== undefined
        ? [{ type: 'user', id: options.userId }]
        : options.organizationId !== undefined
          ? [{ type: ORGANIZATION, id: options.organizationId }]
          : await subscriptions.ownersOn(this.deps.subscription, billingPlans, until);
    const lines: UsageReportLine[] = [];
    for (const owner of owners) {
      // One owner's failure (the provider refused, the lock was busy) does not stop the others.
      lines.push(await this.reportOwner(owner, until).catch((err: unknown) => failed(owner, err)));
    }
    return lines;
  }

  reportUser(userId: number, until: Date): Promise<UsageReportLine> {
    return this.reportOwner({ type: 'user', id: userId }, until);
  }

  async reportOwner(owner: BillableRef, until: Date): Promise<UsageReportLine> {
    const { resolver, subscriptions, owners, gateway } = this.deps;
    const skipped = (reason: string, plan: string | null = null): UsageReportLine => ({
      ...nothing(owner, plan),
      status: 'skipped',
      reason,
    });
    const standing = await resolver.standing(owner.id, owner.type);
    const metered = standing.plan.metered;
    if (!metered || standing.state === 'free' || standing.state === 'lapsed')
      return skipped('not on a plan with a metered price', standing.plan.name);
    const record = await subscriptions.findByName(owner, this.deps.subscription);
    const model = await owners.find(owner);
    const customerId = model?.[gateway.capabilities.columns.customerId];
    const remote = record && customerId ? await gateway.findSubscription(record.providerId) : null;
    if (!record || !customerId || !remote?.currentPeriodStart || !remote.currentPeriodEnd)
      return skipped('no current billing period at the provider', standing.plan.name);
    const period = { start: remote.currentPeriodStart, end: remote.currentPeriodEnd };
    return this.deps.lock.forOwner(owner, () =>
      this.#send({
        owner,
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
    owner: BillableRef;
    customerId: string;
    subscriptionId: string;
    plan: string;
    metered: PlanMeteredPrice;
    period: { start: Date; end: Date };
    until: Date;
  }): Promise<UsageReportLine> {
    const { store, gateway } = this.deps;
    const { owner, metered, period, until } = job;
    const key: ReportKey = { owner, meter: metered.meter, periodStart: period.start.toISOString() };
    // Whole days of the period up to `until` (the aggregates are daily): the renewal day opens the new period.
    const last = dayOf(new Date(Math.min(period.end.getTime() - DAY_MS, until.getTime())));
    const total = await this.deps.ledger.totals({
      ...(owner.type === 'user' ? { userId: owner.id } : { organizationId: owner.id }),
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
        identifier: identifierOf(owner, metered.meter, period.start, next),
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
      ...nothing(owner, job.plan),
      meter: metered.meter,
      periodStart: key.periodStart,
      total: Math.max(total, reported),
      previously,
      sent: reported - previously,
      status: reported > previously ? 'reported' : 'up_to_date',
    };
  }
}
