import type { Context } from 'hono';
import { currentUser } from '../../auth/context.js';
import { wantsJson } from '../../http/respond.js';
import { renderPage } from '../../views/render.js';
import { Organizations } from '../organizations.js';
import { idParam } from '../organizations-controller.js';
import { OrganizationUsage } from './organization-usage.js';
import { OrganizationUsagePage } from './organization-usage-page.js';

/**
 * `GET /organizations/{id}/usage`: the organization's calls this month against its plan's quota,
 * per key and per member; for roles with `usage.view` (owner, admin, billing by default: the page
 * shows what each member did). 404 for someone who is not a member, 403 for a role without it.
 */
export class OrganizationUsageController {
  static inject = [Organizations, OrganizationUsage] as const;

  constructor(
    private readonly organizations: Organizations,
    private readonly usage: OrganizationUsage,
  ) {}

  async show(c: Context): Promise<Response> {
    const id = idParam(c, 'organization');
    const { organization } = await this.organizations.authorize(
      currentUser(c)!.id,
      id,
      'usage.view',
      "see the organization's usage",
    );
    const report = await this.usage.report(id, await this.organizations.members(id));
    if (wantsJson(c)) return c.json(report);
    return renderPage(
      c,
      { title: `${organization.name}: usage` },
      <OrganizationUsagePage organization={organization} report={report} />,
    );
  }
}
