import type { UsageLedger, UsagePoint } from 'tollgate';
import type { DailySeries } from './pages/usage-chart.js';

export type UsageGrouping = 'client' | 'credential' | 'route';

/** A calendar month (UTC): the quota's period, and the chart's. */
export interface Month {
  label: string;
  from: string;
  to: string;
  days: number;
  /** The first instant of the next month: when the quota starts again. */
  next: Date;
}

export function monthOf(at: Date, offset = 0): Month {
  const start = new Date(Date.UTC(at.getUTCFullYear(), at.getUTCMonth() + offset, 1));
  const next = new Date(Date.UTC(start.getUTCFullYear(), start.getUTCMonth() + 1, 1));
  const last = new Date(next.getTime() - 86_400_000);
  return {
    label: start.toLocaleDateString('en-US', { month: 'long', year: 'numeric', timeZone: 'UTC' }),
    from: start.toISOString().slice(0, 10),
    to: last.toISOString().slice(0, 10),
    days: last.getUTCDate(),
    next,
  };
}

/** One row of the breakdown table: a client, credential or route, with its calls in both months. */
export interface UsageGroup {
  id: string;
  current: number;
  previous: number;
}

export interface UsageView {
  current: DailySeries;
  previous: DailySeries;
  groups: UsageGroup[];
}

function series(month: Month, points: UsagePoint[], only: string | undefined): DailySeries {
  const days = new Array<number>(month.days).fill(0);
  for (const p of points) {
    if (only !== undefined && p.group !== only) continue;
    days[Number(p.day.slice(8, 10)) - 1]! += p.units;
  }
  return { label: month.label, days };
}

/**
 * A user's calls per day in this month and the last, grouped by client, credential (`kind:id`) or
 * route; `only` narrows the chart to one group (the table always lists them all).
 */
export async function usageView(
  ledger: UsageLedger,
  userId: number,
  now: Date,
  groupBy: UsageGrouping,
  only?: string,
): Promise<UsageView> {
  const [thisMonth, lastMonth] = [monthOf(now), monthOf(now, -1)];
  const [current, previous] = await Promise.all(
    [thisMonth, lastMonth].map((m) => ledger.daily({ userId, from: m.from, to: m.to, groupBy })),
  );
  const groups = new Map<string, UsageGroup>();
  const add = (points: UsagePoint[], field: 'current' | 'previous') => {
    for (const p of points) {
      const group = groups.get(p.group) ?? { id: p.group, current: 0, previous: 0 };
      group[field] += p.units;
      groups.set(p.group, group);
    }
  };
  add(current!, 'current');
  add(previous!, 'previous');
  return {
    current: series(thisMonth, current!, only),
    previous: series(lastMonth, previous!, only),
    groups: [...groups.values()].sort((a, b) => b.current - a.current || b.previous - a.previous),
  };
}
