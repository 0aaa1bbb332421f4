import type { Child, FC } from 'hono/jsx';
import type { UsageGrouping, UsageView } from '../usage-view.js';
import { DashboardFrame, displayDate } from './frame.js';
import { UsageChart } from './usage-chart.js';

/** What the user's plan allows, as the page words it. */
export interface PlanLimits {
  name: string;
  /** "120 requests per minute"; null: no rate limit. */
  rateLimit: string | null;
  /** Calls per month; null: no quota. */
  monthlyQuota: number | null;
  /** Calls made this month (the quota's count). */
  usedThisMonth: number;
  /** When the quota starts again. */
  resetsAt: Date;
}

export interface UsagePageProps {
  script: string;
  /** Null: no plans are declared (`plans.definitions`), so nothing limits or counts calls. */
  plan: PlanLimits | null;
  view: UsageView;
  grouping: UsageGrouping;
  only: string | undefined;
  labels: Map<string, string>;
  /** Extra sections: what metered usage will cost, and the invoice lines it became. */
  children?: Child;
}

const GROUPINGS: Array<[UsageGrouping, string]> = [
  ['client', 'Client'],
  ['credential', 'Token or key'],
  ['route', 'Route'],
];

const format = (n: number) => n.toLocaleString('en-US');

const QuotaSection: FC<{ plan: PlanLimits }> = ({ plan }) => {
  const { monthlyQuota: quota, usedThisMonth: used } = plan;
  return (
    <section class="card" data-usage-quota>
      <h2>Plan “{plan.name}”</h2>
      {quota === null ? (
        <p>
          <strong>{format(used)}</strong> calls this month; your plan has no monthly quota.
        </p>
      ) : (
        <>
          <p>
            <strong>{format(used)}</strong> of {format(quota)} calls used this month,{' '}
            <strong data-quota-left>{format(Math.max(0, quota - used))}</strong> left. The quota starts again
            on {displayDate(plan.resetsAt.toISOString())}.
          </p>
          <meter
            min={0}
            max={quota}
            low={quota * 0.75}
            high={quota * 0.9}
            optimum={0}
            value={Math.min(used, quota)}
          >
            {Math.round((100 * used) / Math.max(1, quota))}%
          </meter>
        </>
      )}
      <p class="muted mb-0">
        Rate limit: {plan.rateLimit ?? 'none'}. Every OAuth token, personal token and API key of yours counts
        against the same limits; a call over them is answered 429 with <code>Retry-After</code>.
      </p>
    </section>
  );
};

/** `/dashboard/usage`: calls per day this month and last, per client, token or route; the plan's limits. */
export const UsagePage: FC<UsagePageProps> = (props) => {
  const { plan, view, grouping, only, labels } = props;
  const link = (g: UsageGrouping, o?: string) =>
    `/dashboard/usage?group=${g}${o === undefined ? '' : `&only=${encodeURIComponent(o)}`}`;
  return (
    <DashboardFrame current="usage" title="Usage" script={props.script}>
      {plan ? (
        <QuotaSection plan={plan} />
      ) : (
        <section class="card">
          <p class="muted mb-0">No plans are declared, so calls are neither limited nor counted.</p>
        </section>
      )}
      <section class="card" data-usage>
        <h2>Calls per day{only === undefined ? '' : ` — ${labels.get(only) ?? only}`}</h2>
        <form method="get" action="/dashboard/usage" class="actions mt-0 mb-md">
          <label for="usage-group">Group by</label>
          <select id="usage-group" name="group">
            {GROUPINGS.map(([value, text]) => (
              <option value={value} selected={value === grouping}>
                {text}
              </option>
            ))}
          </select>
          <button type="submit" class="btn">
            Show
          </button>
          {only === undefined ? null : <a href={link(grouping)}>Show all</a>}
        </form>
        <UsageChart current={view.current} previous={view.previous} />
        {view.groups.length === 0 ? (
          <p class="muted" data-empty>
            No calls yet this month or last.
          </p>
        ) : (
          <div class="table-wrap mt-lg">
            <table class="table" data-usage-groups>
              <thead>
                <tr>
                  <th>{GROUPINGS.find(([g]) => g === grouping)![1]}</th>
                  <th>{view.current.label}</th>
                  <th>{view.previous.label}</th>
                </tr>
              </thead>
              <tbody>
                {view.groups.map((g) => (
                  <tr data-usage-group={g.id} aria-current={g.id === only ? 'true' : undefined}>
                    <td>
                      <a href={link(grouping, g.id)}>{labels.get(g.id) ?? g.id}</a>
                    </td>
                    <td>{format(g.current)}</td>
                    <td class="muted">{format(g.previous)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
      </section>
      {props.children}
    </DashboardFrame>
  );
};
