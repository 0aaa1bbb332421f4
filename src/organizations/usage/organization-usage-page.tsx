import type { FC } from 'hono/jsx';
import type { OrganizationRow } from '../tables.js';
import type { KeyUsage, OrganizationUsageReport } from './organization-usage.js';

const KINDS: Record<string, string> = {
  api_key: 'API key',
  personal: 'Personal access token',
  oauth: 'OAuth token',
};

const keyLabel = (k: KeyUsage) => `${KINDS[k.kind] ?? k.kind} ${k.name ? `"${k.name}"` : k.id}`;

export interface OrganizationUsagePageProps {
  organization: OrganizationRow;
  report: OrganizationUsageReport;
}

/** `GET /organizations/{id}/usage`: plain tables, no script. */
export const OrganizationUsagePage: FC<OrganizationUsagePageProps> = ({ organization, report: r }) => (
  <div class="stack">
    <section class="card">
      <h1>{organization.name}: usage</h1>
      <p>
        <a href={`/organizations/${organization.id}`}>Back to {organization.name}</a>
      </p>
      <dl>
        <dt>Plan</dt>
        <dd data-plan={r.plan}>
          {r.plan}
          {r.state === 'past_due' ? ' (payment past due)' : r.state === 'lapsed' ? ' (lapsed)' : ''}
        </dd>
        <dt>
          Calls from {r.from} to {r.to} (UTC)
        </dt>
        <dd data-calls={r.calls}>{r.calls}</dd>
        <dt>Monthly quota left</dt>
        <dd data-left={r.left ?? 'unlimited'}>
          {r.left === null ? 'No monthly quota' : `${r.left} of ${r.quota}`}
        </dd>
      </dl>
      <p>Counts are shared by every key of the organization and every member's token for it.</p>
    </section>
    <section class="card" id="by-key">
      <h2>By key</h2>
      {r.byKey.length === 0 ? (
        <p>No calls this month.</p>
      ) : (
        <table class="table">
          <thead>
            <tr>
              <th scope="col">Key</th>
              <th scope="col">Calls</th>
            </tr>
          </thead>
          <tbody>
            {r.byKey.map((k) => (
              <tr data-key={k.id}>
                <td>{keyLabel(k)}</td>
                <td>{k.calls}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
    <section class="card" id="by-member">
      <h2>By member</h2>
      {r.byMember.length === 0 ? (
        <p>No calls this month.</p>
      ) : (
        <table class="table">
          <thead>
            <tr>
              <th scope="col">Member</th>
              <th scope="col">Calls</th>
            </tr>
          </thead>
          <tbody>
            {r.byMember.map((m) => (
              <tr data-member={m.userId}>
                <td>{m.email === null ? `Former member #${m.userId}` : `${m.name} <${m.email}>`}</td>
                <td>{m.calls}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  </div>
);
