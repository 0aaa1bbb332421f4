import type { Application } from '../kernel/application.js';
import { AuditLog } from '../observability/audit/audit-log.js';
import { LoggedOut, Registered, SignedIn, SignInFailed } from './events.js';
import { Users } from './users.js';

const originOf = (ip: string | undefined, userAgent: string | undefined) => ({
  ...(ip ? { ip } : {}),
  ...(userAgent ? { userAgent } : {}),
});

/** With the audit log on, records sign-ins (both outcomes), sign-outs and sign-ups. */
export function auditAuthEvents(app: Application): void {
  if (!app.container.has(AuditLog)) return;
  const audit = app.container.make(AuditLog);
  const { events, container } = app;
  events.listen(SignedIn, ({ user, ip, userAgent, at, methods }) => {
    audit.record({
      kind: 'sign-in.succeeded',
      userId: user.id,
      actor: `user:${user.id}`,
      details: { method: methods.join('+') },
      origin: originOf(ip, userAgent),
      at,
    });
  });
  events.listen(SignInFailed, async ({ email, reason, ip, userAgent, at }) => {
    // The account the address names, if any, sees the attempt in its security log.
    const user = await container.make(Users).findByEmail(email);
    audit.record({
      kind: 'sign-in.failed',
      userId: user?.id ?? null,
      actor: 'anonymous',
      subject: `email:${email.slice(0, 180)}`,
      details: { method: 'pwd', reason },
      origin: originOf(ip, userAgent),
      at,
    });
  });
  events.listen(LoggedOut, ({ userId }) => {
    audit.record({ kind: 'sign-out', userId });
  });
  events.listen(Registered, ({ user }) => {
    audit.record({ kind: 'account.registered', userId: user.id, subject: `user:${user.id}` });
  });
}
