import type { Context } from 'hono';
import { ValidationError } from 'tollgate';
import { OrganizationRoles, Organizations } from 'tollgate/organizations';

/**
 * Whose credentials a dashboard page shows: the user's own, or an organization's they belong to
 * (`?organization_id=`, the same parameter as the JSON APIs). The choice lives in the URL, never in
 * the session, so two tabs in two organizations cannot post into each other's.
 */
export interface DashboardScope {
  /** The organization the page acts for; undefined: the user's own credentials. */
  organizationId?: number;
  /** `?organization_id=…` for the page's links, forms and redirects; '' for the user's own. */
  query: string;
  /** Whether the user may create and change the credentials shown (always for their own). */
  canManage: boolean;
  /** The user's organizations, for the switcher; empty for a personal account. */
  organizations: { id: number; name: string }[];
}

const ID = /^[1-9]\d{0,15}$/;

/** Reads the scope of a dashboard request: 422 for a malformed id, 404 for an organization the user is not in. */
export class DashboardScopes {
  static inject = [Organizations, OrganizationRoles] as const;

  constructor(
    private readonly organizations: Organizations,
    private readonly roles: OrganizationRoles,
  ) {}

  async read(c: Context): Promise<DashboardScope> {
    const userId = c.get('user')!.id;
    const memberships = await this.organizations.forUser(userId);
    const organizations = memberships.map(({ organization }) => ({
      id: organization.id,
      name: organization.name,
    }));
    const value = c.req.query('organization_id');
    if (value === undefined || value === '') return { query: '', canManage: true, organizations };
    if (!ID.test(value))
      throw new ValidationError({
        organization_id: ['The organization id must be a positive whole number.'],
      });
    const organizationId = Number(value);
    // Not a member: the same 404 as the JSON APIs, whether the organization exists or not.
    const { role } = await this.organizations.membership(userId, organizationId);
    return {
      organizationId,
      query: `?organization_id=${organizationId}`,
      canManage: this.roles.can(role, 'credentials.manage'),
      organizations,
    };
  }
}
