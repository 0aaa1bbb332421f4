import { UserDeletionGuards } from '../auth/user-deletion-guards.js';
import { ConfigurationError } from '../core/errors.js';
import type { Application, ServiceProvider } from '../kernel/application.js';
import { Mailer } from '../mail/mailer.js';
import { AuditLog } from '../observability/audit/audit-log.js';
import { OrganizationAuditController } from './audit/organization-audit-controller.js';
import { OrganizationBilling } from './billing/organization-billing.js';
import { registerOrganizationBilling } from './billing/register-billing.js';
import type { SeatOptions } from './billing/seat-sync.js';
import { endMembershipTokens, useOrganizationCredentials } from './credentials/organization-credentials.js';
import { DomainJoin } from './domain-join.js';
import { InvitationController } from './invitation-controller.js';
import { Invitations } from './invitations.js';
import { organizationsMigrations } from './migrations.js';
import { Organizations } from './organizations.js';
import { OrganizationsController } from './organizations-controller.js';
import { OrganizationPageLinks } from './page-links.js';
import { recordOrganizationAudit } from './record-audit.js';
import { OrganizationRoles } from './roles.js';
import { registerOrganizationUsage } from './usage/register-usage.js';

export interface OrganizationsOptions {
  /** How long an invitation link works. Default: 7 days. */
  invitationDays?: number;
  /** Extends the permission table: `(roles) => roles.grant('admin', 'keys.create')`. */
  roles?: (roles: OrganizationRoles) => void;
  /** Per-seat plans (with `billingProvider()` registered first): see docs/organizations.md#billing. */
  seats?: SeatOptions;
}

/**
 * Organizations (docs/organizations.md): the `/organizations` pages, members with roles, and
 * invitations mailed through the outbox. Needs `authProvider()` and `mailProvider()`; with
 * `observabilityProvider()` the membership changes go to the audit log. A user in no organization
 * keeps working as a personal account.
 */
export function organizationsProvider(options: OrganizationsOptions = {}): ServiceProvider {
  return {
    name: 'organizations',
    migrations: [organizationsMigrations],

    register(app: Application) {
      const { container, router, events, clock, db } = app;
      if (!container.has(Mailer))
        throw new ConfigurationError('organizationsProvider() needs mailProvider() registered first.');
      const roles = new OrganizationRoles();
      options.roles?.(roles);
      // With oauth: clients, API keys and personal access tokens may belong to an organization.
      const withOAuth = app.providers.some((p) => p.name === 'oauth');
      const links = new OrganizationPageLinks();
      container
        .instance(OrganizationRoles, roles)
        .instance(OrganizationPageLinks, links)
        .singleton(
          Organizations,
          (c) =>
            new Organizations({
              db,
              roles,
              events,
              clock,
              // With billing on, deleting an organization cancels its subscriptions first.
              refuseDeletion: (id) =>
                c.has(OrganizationBilling)
                  ? c.make(OrganizationBilling).cancelBeforeDeletion(id)
                  : Promise.resolve(undefined),
              ...(withOAuth ? { endMembership: endMembershipTokens(app) } : {}),
            }),
        )
        .singleton(DomainJoin, (c) => new DomainJoin(db, c.make(Organizations), events))
        .singleton(
          Invitations,
          (c) =>
            new Invitations({
              db,
              organizations: c.make(Organizations),
              mailer: c.make(Mailer),
              events,
              clock,
              expiresDays: options.invitationDays ?? 7,
            }),
        );
      // Deleting an account (accounts) first ends the user's memberships here, keeping an owner.
      container.make(UserDeletionGuards).add((userId) => container.make(Organizations).releaseUser(userId));
      if (container.has(AuditLog)) recordOrganizationAudit(events, container.make(AuditLog));
      if (withOAuth) useOrganizationCredentials(app, () => container.make(Organizations));
      registerOrganizationBilling(app, options.seats);
      registerOrganizationUsage(app);

      router.controllers
        .register(OrganizationsController, 'Organizations/OrganizationsController')
        .register(InvitationController, 'Organizations/InvitationController');
      router.group({ prefix: '/organizations', middleware: ['web', 'auth'] }, (orgs) => {
        orgs.get('/', [OrganizationsController, 'index']).name('organizations.index');
        orgs.post('/', [OrganizationsController, 'store']).name('organizations.store');
        orgs.get('/:organization', [OrganizationsController, 'show']).name('organizations.show');
        orgs.post('/:organization', [OrganizationsController, 'rename']).name('organizations.rename');
        orgs
          .post('/:organization/delete', [OrganizationsController, 'destroy'])
          .name('organizations.destroy');
        orgs.post('/:organization/leave', [OrganizationsController, 'leave']).name('organizations.leave');
        orgs.post('/:organization/join', [OrganizationsController, 'join']).name('organizations.join');
        orgs
          .post('/:organization/domain', [OrganizationsController, 'setDomain'])
          .name('organizations.domain');
        if (container.has(AuditLog)) {
          router.controllers.register(
            OrganizationAuditController,
            'Organizations/OrganizationAuditController',
          );
          orgs.get('/:organization/audit', [OrganizationAuditController, 'show']).name('organizations.audit');
          links.add({ label: 'Audit log', path: 'audit', permission: 'audit.view' });
        }
        orgs
          .post('/:organization/transfer', [OrganizationsController, 'transfer'])
          .name('organizations.transfer');
        orgs
          .post('/:organization/members/:user/role', [OrganizationsController, 'changeRole'])
          .name('organizations.members.role');
        orgs
          .post('/:organization/members/:user/remove', [OrganizationsController, 'removeMember'])
          .name('organizations.members.remove');
        orgs
          .post('/:organization/invitations', [OrganizationsController, 'invite'])
          .name('organizations.invite');
        orgs
          .post('/:organization/invitations/:invitation/resend', [
            OrganizationsController,
            'resendInvitation',
          ])
          .name('organizations.invitations.resend');
        orgs
          .post('/:organization/invitations/:invitation/revoke', [
            OrganizationsController,
            'revokeInvitation',
          ])
          .name('organizations.invitations.revoke');
      });
      router
        .get('/invitations/accept', [InvitationController, 'show'])
        .name('invitations.show')
        .middleware('web');
      router
        .post('/invitations/accept', [InvitationController, 'accept'])
        .name('invitations.accept')
        .middleware('web', 'auth');
    },
  };
}
