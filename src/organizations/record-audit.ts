import type { EventDispatcher } from '../core/events.js';
import { CredentialCreated } from '../oauth/events.js';
import type { AuditLog } from '../observability/audit/audit-log.js';
import {
  AutoJoinDomainChanged,
  InvitationRevoked,
  MemberAdded,
  MemberInvited,
  MemberRemoved,
  MemberRoleChanged,
} from './events.js';

/**
 * Writes who invited, who joined, who was removed (or left), whose role changed and who created a
 * credential for the organization to the audit log, with the organization as the subject: what an organization's history page lists.
 */
export function recordOrganizationAudit(events: EventDispatcher, audit: AuditLog): void {
  const subject = (id: number) => `organization:${id}`;
  events.listen(MemberInvited, (e) =>
    audit.record({
      kind: 'organization.member-invited',
      actor: `user:${e.actorId}`,
      userId: e.actorId,
      subject: subject(e.organizationId),
      details: { invitation_id: e.invitationId, email: e.email, role: e.role },
    }),
  );
  events.listen(InvitationRevoked, (e) =>
    audit.record({
      kind: 'organization.invitation-revoked',
      actor: `user:${e.actorId}`,
      userId: e.actorId,
      subject: subject(e.organizationId),
      details: { invitation_id: e.invitationId, email: e.email },
    }),
  );
  events.listen(MemberAdded, (e) =>
    audit.record({
      kind: 'organization.member-added',
      actor: `user:${e.userId}`,
      userId: e.userId,
      subject: subject(e.organizationId),
      details: { role: e.role, invited_by: e.actorId, ...(e.via ? { via: e.via } : {}) },
    }),
  );
  events.listen(AutoJoinDomainChanged, (e) =>
    audit.record({
      kind: 'organization.auto-join-changed',
      actor: `user:${e.actorId}`,
      userId: e.actorId,
      subject: subject(e.organizationId),
      details: { domain: e.domain },
    }),
  );
  events.listen(MemberRoleChanged, (e) =>
    audit.record({
      kind: 'organization.role-changed',
      actor: `user:${e.actorId}`,
      userId: e.userId,
      subject: subject(e.organizationId),
      details: { from: e.from, to: e.to },
    }),
  );
  events.listen(CredentialCreated, (e) => {
    if (e.organizationId === null) return;
    audit.record({
      kind: 'organization.credential-created',
      actor: `user:${e.userId}`,
      userId: e.userId,
      subject: subject(e.organizationId),
      details: { credential: e.kind, id: e.id, name: e.name },
    });
  });
  events.listen(MemberRemoved, (e) =>
    audit.record({
      kind: e.actorId === e.userId ? 'organization.member-left' : 'organization.member-removed',
      actor: `user:${e.actorId}`,
      userId: e.userId,
      subject: subject(e.organizationId),
      details: { role: e.role },
    }),
  );
}
