/**
 * `tollgate/organizations`: organizations, members with roles, invitations by e-mail. Register
 * `organizationsProvider()` after `authProvider()` and `mailProvider()`.
 */

export { BillableOrganization, OrganizationModel } from './billing/billable-organization.js';
export type { BillingDetails } from './billing/organization-billing.js';
export { OrganizationBilling } from './billing/organization-billing.js';
export type { SeatOptions, SeatRetryReport } from './billing/seat-sync.js';
export { SeatSync } from './billing/seat-sync.js';
export type { SeatSyncRetryOptions } from './billing/seat-sync-schedule.js';
export { retrySeatSyncsOnce, scheduleSeatSyncRetries } from './billing/seat-sync-schedule.js';
export { DomainJoin } from './domain-join.js';
export { LAST_OWNER, OrganizationError } from './errors.js';
export {
  AutoJoinDomainChanged,
  InvitationRevoked,
  MemberAdded,
  MemberInvited,
  MemberRemoved,
  MemberRoleChanged,
  OrganizationCreated,
  OrganizationDeleted,
  OrganizationRenamed,
} from './events.js';
export type { CheckedInvitation, InvitationFailure } from './invitations.js';
export { Invitations } from './invitations.js';
export type { MemberListing, Membership } from './organizations.js';
export { Organizations } from './organizations.js';
export type { OrganizationsOptions } from './provider.js';
export { organizationsProvider } from './provider.js';
export type { Permission } from './roles.js';
export { OrganizationRoles, ROLES } from './roles.js';
