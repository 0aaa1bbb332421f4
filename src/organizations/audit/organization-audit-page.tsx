import type { FC } from 'hono/jsx';
import type { AuditEvent } from '../../observability/audit/audit-reader.js';
import type { OrganizationRow } from '../tables.js';

const CREDENTIALS: Record<string, string> = {
  'api-key': 'API key',
  'personal-access-token': 'personal access token',
  client: 'OAuth client',
};

/** What each organization event says, given who did it and to whom. */
const SENTENCES: Record<string, (who: string, whom: string, d: Record<string, unknown>) => string> = {
  'organization.member-invited': (who, _, d) => `${who} invited ${String(d.email)} as ${String(d.role)}`,
  'organization.invitation-revoked': (who, _, d) => `${who} revoked the invitation of ${String(d.email)}`,
  'organization.member-added': (_, whom, d) =>
    `${whom} joined as ${String(d.role)}${d.via === 'domain' ? ' by their e-mail domain' : ''}`,
  'organization.auto-join-changed': (who, _, d) =>
    d.domain
      ? `${who} let anyone verified at ${String(d.domain)} join`
      : `${who} ended joining by e-mail domain`,
  'organization.role-changed': (who, whom, d) =>
    `${who} changed the role of ${whom} from ${String(d.from)} to ${String(d.to)}`,
  'organization.member-removed': (who, whom) => `${who} removed ${whom}`,
  'organization.member-left': (_, whom) => `${whom} left`,
  'organization.credential-created': (who, _, d) =>
    `${who} created the ${CREDENTIALS[String(d.credential)] ?? 'credential'} "${String(d.name)}"`,
};

export interface OrganizationAuditPageProps {
  organization: OrganizationRow;
  events: AuditEvent[];
  /** E-mail addresses by `user:{id}`. */
  names: Map<string, string>;
  olderPath: string | null;
}

/** `GET /organizations/{id}/audit`: the organization's history, newest first. */
export const OrganizationAuditPage: FC<OrganizationAuditPageProps> = (p) => {
  const nameOf = (actor: string) => p.names.get(actor) ?? (actor === 'cli' ? 'an administrator' : 'someone');
  return (
    <section class="card">
      <h1>{p.organization.name}: audit log</h1>
      <p>
        <a href={`/organizations/${p.organization.id}`}>Back to {p.organization.name}</a>
      </p>
      {p.events.length === 0 ? (
        <p>Nothing has happened yet.</p>
      ) : (
        <table class="table">
          <thead>
            <tr>
              <th scope="col">When</th>
              <th scope="col">What</th>
            </tr>
          </thead>
          <tbody>
            {p.events.map((e) => {
              const say = SENTENCES[e.kind];
              const text = say ? say(nameOf(e.actor), nameOf(`user:${e.user_id}`), e.details ?? {}) : e.kind;
              return (
                <tr data-kind={e.kind}>
                  <td>
                    <time datetime={e.at}>{e.at.slice(0, 16).replace('T', ' ')} UTC</time>
                  </td>
                  <td>{text}</td>
                </tr>
              );
            })}
          </tbody>
        </table>
      )}
      {p.olderPath ? (
        <p>
          <a href={p.olderPath}>Older events</a>
        </p>
      ) : null}
    </section>
  );
};
