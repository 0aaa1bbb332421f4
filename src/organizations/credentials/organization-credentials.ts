import type { Application } from '../../kernel/application.js';
import { OAuthHooks, type OrganizationCredentialAction, OrganizationRevocation } from '../../oauth/index.js';
import { OrganizationDeleted } from '../events.js';
import type { Organizations, OrganizationsDeps } from '../organizations.js';
import type { Permission } from '../roles.js';

/** The permission each credential action needs, and what a refusal says the role does not allow. */
const NEEDS: Record<OrganizationCredentialAction, { permission: Permission; what: string }> = {
  view: { permission: 'organization.view', what: "see the organization's credentials" },
  manage: { permission: 'credentials.manage', what: "create or revoke the organization's keys and clients" },
  use: { permission: 'credentials.use', what: 'create tokens that act for the organization' },
};

/**
 * Organization-owned credentials (docs/organizations.md): oauth asks the member's role before a
 * credential is made for, listed in or revoked from an organization; a member who leaves loses
 * their tokens for it at once; a deleted organization's credentials all end.
 */
export function useOrganizationCredentials(app: Application, organizations: () => Organizations): void {
  // Oauth's seam, answered by the member's role (404 for someone who is not a member).
  OAuthHooks.of(app).organizationAccess = async (userId, organizationId, action, options) => {
    const { permission, what } = NEEDS[action];
    await organizations().authorize(userId, organizationId, permission, what, options);
  };
  app.events.listen(OrganizationDeleted, (e) =>
    app.container.make(OrganizationRevocation).organization(e.organizationId),
  );
}

/** A member who leaves loses their tokens for the organization in the same transaction (with oauth). */
export function endMembershipTokens(app: Application): OrganizationsDeps['endMembership'] {
  return (trx, organizationId, userId) =>
    app.container.make(OrganizationRevocation).memberWithin(trx, userId, organizationId);
}
