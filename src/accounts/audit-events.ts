import type { Application } from '../kernel/application.js';
import { AuditLog } from '../observability/audit/audit-log.js';
import {
  AccountDeleted,
  EmailChanged,
  OtherSessionsEnded,
  PasswordChanged,
  RecoveryCodesRegenerated,
  TwoFactorDisabled,
  TwoFactorEnabled,
  TwoFactorLocked,
} from './events.js';

/**
 * With the audit log on, records the account changes: password, e-mail address, sessions ended,
 * two-factor sign-in on, off, locked and new recovery codes, deletion.
 */
export function auditAccountEvents(app: Application): void {
  if (!app.container.has(AuditLog)) return;
  const audit = app.container.make(AuditLog);
  const { events } = app;
  events.listen(PasswordChanged, ({ user, via, origin, at }) => {
    audit.record({ kind: 'password.changed', userId: user.id, details: { via }, origin, at });
  });
  events.listen(EmailChanged, ({ user, previousEmail, origin, at }) => {
    audit.record({
      kind: 'email.changed',
      userId: user.id,
      details: { from: previousEmail, to: user.email },
      origin,
      at,
    });
  });
  events.listen(OtherSessionsEnded, ({ user, ended, origin, at }) => {
    audit.record({ kind: 'sessions.ended', userId: user.id, details: { ended }, origin, at });
  });
  events.listen(TwoFactorEnabled, ({ user, origin, at }) => {
    audit.record({ kind: 'two-factor.enabled', userId: user.id, origin, at });
  });
  events.listen(TwoFactorDisabled, ({ user, origin, at }) => {
    audit.record({ kind: 'two-factor.disabled', userId: user.id, origin, at });
  });
  events.listen(RecoveryCodesRegenerated, ({ user, origin, at }) => {
    audit.record({ kind: 'two-factor.recovery-codes-regenerated', userId: user.id, origin, at });
  });
  events.listen(TwoFactorLocked, ({ user, until, origin, at }) => {
    // Whoever typed the codes knew the password: not the user, as far as anyone can tell.
    audit.record({
      kind: 'two-factor.locked',
      userId: user.id,
      actor: 'anonymous',
      details: { until: until.toISOString() },
      origin,
      at,
    });
  });
  events.listen(AccountDeleted, ({ userId, origin, at }) => {
    audit.record({ kind: 'account.deleted', userId, subject: `user:${userId}`, origin, at });
  });
}
