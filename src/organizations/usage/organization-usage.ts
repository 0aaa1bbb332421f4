import type { Kysely } from 'kysely';
import type { Clock } from '../../core/clock.js';
import type { Database } from '../../database/types.js';
import type { PlanResolver, UsageLedger } from '../../plans/index.js';
import type { MemberListing } from '../organizations.js';

/** The organization's billable type: its plan is its subscription's (see plans' `planHolderOf`). */
const ORGANIZATION = 'organization';

/** One credential's calls this month: an organization API key, or a member's token for it. */
export interface KeyUsage {
  kind: string;
  id: string;
  /** The key's or token's name; null when it has none (an OAuth app's token). */
  name: string | null;
  calls: number;
}

/** One member's calls this month (with every credential they used for the organization). */
export interface MemberUsage {
  userId: number;
  /** Null for someone who is no longer a member. */
  name: string | null;
  email: string | null;
  calls: number;
}

/** What the usage page shows: the month so far, against the organization's plan. */
export interface OrganizationUsageReport {
  plan: string;
  /** `subscribed`, `past_due`, `lapsed` or `free` (as `PlanStanding.state`). */
  state: string;
  /** The calendar month (UTC) the monthly quota counts: first day, and today. */
  from: string;
  to: string;
  calls: number;
  /** Calls a month the plan allows; null: no quota. */
  quota: number | null;
  /** What is left of the quota (never below 0); null: no quota. */
  left: number | null;
  byKey: KeyUsage[];
  byMember: MemberUsage[];
}

export interface OrganizationUsageDeps {
  db: Kysely<Database>;
  resolver: PlanResolver;
  ledger: UsageLedger;
  clock: Clock;
}

/**
 * An organization's API usage this month from the daily aggregates (what was flushed, so up to
 * `plans.metering.flushMs` behind): calls in all against its plan's monthly quota, per key and per
 * member.
 */
export class OrganizationUsage {
  constructor(private readonly deps: OrganizationUsageDeps) {}

  async report(organizationId: number, members: readonly MemberListing[]): Promise<OrganizationUsageReport> {
    const { resolver, ledger, clock } = this.deps;
    const today = clock.now().toISOString().slice(0, 10);
    const range = { organizationId, from: `${today.slice(0, 7)}-01`, to: today };
    const [standing, calls, keys, users] = await Promise.all([
      resolver.standing(organizationId, ORGANIZATION),
      ledger.totals({ ...range, meter: 'calls' }),
      ledger.shares({ ...range, groupBy: 'credential' }),
      ledger.shares({ ...range, groupBy: 'member' }),
    ]);
    const quota = standing.plan.monthlyQuota;
    const names = await this.#credentialNames(keys.map((k) => k.group.slice(k.group.indexOf(':') + 1)));
    const byId = new Map(members.map((m) => [m.userId, m]));
    return {
      plan: standing.plan.name,
      state: standing.state,
      from: range.from,
      to: range.to,
      calls,
      quota,
      left: quota === null ? null : Math.max(0, quota - calls),
      byKey: keys.map(({ group, units }) => {
        const at = group.indexOf(':');
        const id = group.slice(at + 1);
        return { kind: group.slice(0, at), id, name: names.get(id) ?? null, calls: units };
      }),
      byMember: users.map(({ group, units }) => {
        const member = byId.get(Number(group));
        return {
          userId: Number(group),
          name: member?.name ?? null,
          email: member?.email ?? null,
          calls: units,
        };
      }),
    };
  }

  /** The names of the API keys and personal access tokens among `ids`. */
  async #credentialNames(ids: string[]): Promise<Map<string, string>> {
    if (ids.length === 0) return new Map();
    const { db } = this.deps;
    const [keys, tokens] = await Promise.all([
      db.selectFrom('api_keys').select(['id', 'name']).where('id', 'in', ids).execute(),
      db.selectFrom('oauth_access_tokens').select(['id', 'name']).where('id', 'in', ids).execute(),
    ]);
    const names = new Map<string, string>();
    for (const row of [...keys, ...tokens]) if (row.name) names.set(row.id, row.name);
    return names;
  }
}
