import type { Context } from 'hono';
import {
  type Clock,
  ClockKey,
  ConfigKey,
  type Plan,
  PlanResolver,
  type PlanStanding,
  Plans,
  type TollgateConfig,
  UsageLedger,
} from 'tollgate';
import { formatMoney } from 'tollgate/billing';
import { ApiKeys, Clients, PersonalAccessTokens } from 'tollgate/oauth';
import { renderPage } from 'tollgate/views';
import type { AppUser } from '../../user.js';
import { MeteredUsageSection } from '../pages/metered-usage-section.js';
import { type PlanLimits, UsagePage } from '../pages/usage-page.js';
import { scriptUrl } from '../scripts.js';
import { UsageLabels } from '../usage-labels.js';
import { monthOf, type UsageGrouping, usageView } from '../usage-view.js';

const GROUPINGS: readonly UsageGrouping[] = ['client', 'credential', 'route'];
const PER: Record<number, string> = { 1: 'second', 60: 'minute', 3600: 'hour', 86400: 'day' };

function rateLimitText(plan: Plan): string | null {
  const limit = plan.rateLimit;
  if (!limit) return null;
  const per = PER[limit.durationSeconds] ?? `${limit.durationSeconds} seconds`;
  return `${limit.points.toLocaleString('en-US')} requests per ${per}`;
}

/**
 * `/dashboard/usage`: the user's calls per day (this month and last) from the usage ledger, grouped
 * by client, token or key, or route (`?group=`), narrowed to one (`?only=`); the plan's quota and
 * rate limit; for a plan with a metered price, the next invoice as projected and the last one's
 * lines. Plain GET links and a form: it works without JavaScript.
 */
export class UsageController {
  static inject = [
    Plans,
    PlanResolver,
    UsageLedger,
    Clients,
    ApiKeys,
    PersonalAccessTokens,
    ClockKey,
    ConfigKey,
  ] as const;
  readonly #labels: UsageLabels;

  constructor(
    private readonly plans: Plans,
    private readonly resolver: PlanResolver,
    private readonly ledger: UsageLedger,
    clients: Clients,
    keys: ApiKeys,
    tokens: PersonalAccessTokens,
    private readonly clock: Clock,
    private readonly config: TollgateConfig,
  ) {
    this.#labels = new UsageLabels(clients, keys, tokens);
  }

  async show(c: Context): Promise<Response> {
    const user = c.get('user') as AppUser;
    const now = this.clock.now();
    const asked = c.req.query('group') as UsageGrouping | undefined;
    const grouping = asked && GROUPINGS.includes(asked) ? asked : 'client';
    const only = c.req.query('only');
    const view = await usageView(this.ledger, user.id, now, grouping, only);
    const ids = view.groups.map((g) => g.id);
    if (only !== undefined && !ids.includes(only)) ids.push(only);
    // One reading of the user's plan for both sections (the resolver caches it anyway).
    const standing = this.plans.enabled ? await this.resolver.standing(user.id) : undefined;
    const page = (
      <UsagePage
        script={await scriptUrl()}
        plan={standing ? await this.#limits(user.id, standing.plan, now) : null}
        view={view}
        grouping={grouping}
        only={only}
        labels={await this.#labels.labels(grouping, ids, user.id)}
      >
        {standing ? await this.#metered(user, standing) : null}
      </UsagePage>
    );
    const res = await renderPage(c, { title: 'Usage' }, page);
    res.headers.set('Cache-Control', 'no-store');
    return res;
  }

  /** The metered price's section, for a subscriber of a plan that has one. */
  async #metered(user: AppUser, { plan, state }: PlanStanding) {
    if (!plan.metered || state === 'free' || state === 'lapsed') return null;
    const { currency, currencySymbol } = this.config.billing;
    const { unitAmount } = plan.metered;
    const [upcoming, invoices] = await Promise.all([
      user.upcomingInvoice(this.config.plans.subscription),
      user.invoices(),
    ]);
    return (
      <MeteredUsageSection
        meter={plan.metered.meter}
        unitPrice={unitAmount === undefined ? null : formatMoney(unitAmount, currency, currencySymbol)}
        upcoming={upcoming}
        last={invoices[0]}
      />
    );
  }

  async #limits(userId: number, plan: Plan, now: Date): Promise<PlanLimits> {
    const month = monthOf(now);
    return {
      name: plan.name,
      rateLimit: rateLimitText(plan),
      monthlyQuota: plan.monthlyQuota,
      usedThisMonth: await this.ledger.totals({ userId, meter: 'calls', from: month.from, to: month.to }),
      resetsAt: month.next,
    };
  }
}
