import type { FC } from 'hono/jsx';
import type { AuditEvent } from '../../observability/audit/audit-reader.js';
import { deviceName } from './device-name.js';

/** What each audited kind says to the account's owner. */
const LABELS: Record<string, string> = {
  'sign-in.succeeded': 'Signed in',
  'sign-in.failed': 'Failed sign-in attempt',
  'sign-out': 'Signed out',
  'account.registered': 'Account created',
  'password.changed': 'Password changed',
  'email.changed': 'E-mail address changed',
  'sessions.ended': 'Other sessions signed out',
  'two-factor.enabled': 'Authenticator app turned on',
  'two-factor.disabled': 'Authenticator app turned off',
  'two-factor.recovery-codes-regenerated': 'New recovery codes made',
  'two-factor.locked': 'Too many wrong codes: two-factor sign-in locked',
  'sign-in.upstream-linked': 'Sign-in provider linked',
  'sign-in.upstream-unlinked': 'Sign-in provider unlinked',
  'account.deleted': 'Account deleted',
  'client.created': 'OAuth client created',
  'client.updated': 'OAuth client changed',
  'client.secret-rotated': 'OAuth client secret rotated',
  'client.deleted': 'OAuth client deleted',
  'personal-access-token.created': 'Personal access token created',
  'personal-access-token.revoked': 'Personal access token revoked',
  'api-key.created': 'API key created',
  'api-key.revoked': 'API key revoked',
  'consent.granted': 'Application authorized',
  'consent.revoked': 'Application access revoked',
  'subscription.changed': 'Subscription changed',
  'subscription.cancelled': 'Subscription cancelled',
  'payment.succeeded': 'Payment succeeded',
  'payment.failed': 'Payment failed',
  'payment.requires-action': 'Payment needs confirmation',
};

/** Sign-in methods by their RFC 8176 `amr` name. */
const METHODS: Record<string, string> = { pwd: 'password', otp: 'authenticator app' };

/** The few facts worth a line: the sign-in method, the token's name, the plan. */
function detailOf(event: AuditEvent): string {
  const d = event.details ?? {};
  const method =
    typeof d.method === 'string'
      ? d.method
          .split('+')
          .map((m) => METHODS[m] ?? m)
          .join(' and ')
      : undefined;
  const facts = [method, d.name, d.plan, d.reason === 'throttled' ? 'too many attempts' : undefined];
  if (d.from && d.to) facts.push(`${String(d.from)} → ${String(d.to)}`);
  return facts.filter((f) => typeof f === 'string' && f !== '').join(' · ');
}

const actorOf = (event: AuditEvent) =>
  event.actor === 'cli' ? 'an administrator' : event.actor === 'webhook' ? 'the payment provider' : '';

export interface SecurityLogPageProps {
  events: AuditEvent[];
  /** The link to older events, when there are more. */
  olderPath: string | null;
}

/** `GET /account/security-log`: the account's own security events, newest first. */
export const SecurityLogPage: FC<SecurityLogPageProps> = ({ events, olderPath }) => (
  <div class="stack">
    <section class="card">
      <h1>Security log</h1>
      <p>
        Sign-ins, changes to your account and the credentials that act for you. Something you do not
        recognise? Change your password and sign out your other sessions on{' '}
        <a href="/account">your account</a>.
      </p>
      {events.length === 0 ? (
        <p>Nothing yet.</p>
      ) : (
        <table class="table">
          <thead>
            <tr>
              <th>When</th>
              <th>Event</th>
              <th>Address</th>
              <th>Device</th>
            </tr>
          </thead>
          <tbody>
            {events.map((e) => (
              <tr>
                <td>
                  <time datetime={e.at}>{e.at.slice(0, 16).replace('T', ' ')} UTC</time>
                </td>
                <td>
                  {LABELS[e.kind] ?? e.kind}
                  {detailOf(e) ? <small> ({detailOf(e)})</small> : null}
                  {actorOf(e) ? <small> by {actorOf(e)}</small> : null}
                </td>
                <td>{e.ip ?? '—'}</td>
                <td>{e.user_agent ? deviceName(e.user_agent) : '—'}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {olderPath ? (
        <p>
          <a href={olderPath}>Older events</a>
        </p>
      ) : null}
    </section>
  </div>
);
