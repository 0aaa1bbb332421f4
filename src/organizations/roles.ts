/** The roles every organization has; an application may define more with `OrganizationRoles.define`. */
export const ROLES = ['owner', 'admin', 'billing', 'member'] as const;

/** What a member may do. Applications add their own (`keys.create`) with `grant`. */
export type Permission =
  | 'organization.view'
  | 'organization.update'
  | 'organization.delete'
  | 'organization.transfer'
  | 'members.invite'
  | 'members.remove'
  | 'members.update'
  /** Make, unmake or remove an owner (including inviting one). */
  | 'members.manage-owners'
  | 'billing.manage'
  /** Create and revoke the organization's API keys and OAuth clients. */
  | 'credentials.manage'
  /** Create personal access tokens that act for the organization (its `org_id`). */
  | 'credentials.use'
  /** See the organization's audit page. */
  | 'audit.view'
  /** See the organization's usage page: its plan, quota left, calls per key and per member. */
  | 'usage.view'
  /** Let people join by their verified address's e-mail domain. */
  | 'members.auto-join'
  | (string & {});

const DEFAULTS: Record<string, readonly Permission[]> = {
  owner: [
    'organization.view',
    'organization.update',
    'organization.delete',
    'organization.transfer',
    'members.invite',
    'members.remove',
    'members.update',
    'members.manage-owners',
    'billing.manage',
    'credentials.manage',
    'credentials.use',
    'audit.view',
    'usage.view',
    'members.auto-join',
  ],
  admin: [
    'organization.view',
    'organization.update',
    'members.invite',
    'members.remove',
    'members.update',
    'credentials.manage',
    'credentials.use',
    'audit.view',
    'usage.view',
  ],
  billing: ['organization.view', 'billing.manage', 'credentials.use', 'usage.view'],
  member: ['organization.view', 'credentials.use'],
};

/** The permission table: which role may do what. One per application, extended at register time. */
export class OrganizationRoles {
  readonly #table = new Map<string, Set<Permission>>(
    Object.entries(DEFAULTS).map(([role, permissions]) => [role, new Set(permissions)]),
  );

  /** Adds a role (with no permissions unless given). */
  define(role: string, ...permissions: Permission[]): this {
    this.#table.set(role, new Set([...(this.#table.get(role) ?? []), ...permissions]));
    return this;
  }

  grant(role: string, ...permissions: Permission[]): this {
    return this.define(role, ...permissions);
  }

  can(role: string, permission: Permission): boolean {
    return this.#table.get(role)?.has(permission) ?? false;
  }

  exists(role: string): boolean {
    return this.#table.has(role);
  }

  names(): string[] {
    return [...this.#table.keys()];
  }
}
