/** A link on the organization page to another page of the organization (`/organizations/{id}/usage`). */
export interface OrganizationPageLink {
  label: string;
  /** Under the organization's own path: `usage` links to `/organizations/{id}/usage`. */
  path: string;
  /** The role permission a member needs to be shown the link. */
  permission: string;
}

/**
 * The links the organization page shows: a part that serves a page of the organization (usage with
 * plans, the audit log with observability) adds its link when it is registered, so the page never
 * links to a route that is not there.
 */
export class OrganizationPageLinks {
  readonly #links: OrganizationPageLink[] = [];

  add(link: OrganizationPageLink): this {
    this.#links.push(link);
    return this;
  }

  list(): readonly OrganizationPageLink[] {
    return this.#links;
  }
}
