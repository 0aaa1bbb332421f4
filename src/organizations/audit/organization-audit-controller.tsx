import type { Context } from 'hono';
import { currentUser } from '../../auth/context.js';
import { wantsJson } from '../../http/respond.js';
import { AuditLog } from '../../observability/audit/audit-log.js';
import { AuditReader, decodeCursor } from '../../observability/audit/audit-reader.js';
import { renderPage } from '../../views/render.js';
import { Organizations } from '../organizations.js';
import { idParam } from '../organizations-controller.js';
import { OrganizationAuditPage } from './organization-audit-page.js';

const PAGE_SIZE = 50;

/**
 * `GET /organizations/{id}/audit`: who invited, removed, changed a role or created a credential,
 * newest first in pages of 50 (links, no script); for members whose role has `audit.view`.
 */
export class OrganizationAuditController {
  static inject = [Organizations, AuditLog] as const;

  constructor(
    private readonly organizations: Organizations,
    private readonly log: AuditLog,
  ) {}

  async show(c: Context): Promise<Response> {
    const id = idParam(c, 'organization');
    const { organization } = await this.organizations.authorize(
      currentUser(c)!.id,
      id,
      'audit.view',
      "see the organization's audit log",
    );
    const before = c.req.query('before');
    const cursor = before !== undefined && decodeCursor(before) !== undefined ? before : undefined;
    const page = await new AuditReader(this.log).page(
      { subject: `organization:${id}` },
      { limit: PAGE_SIZE, cursor },
    );
    if (wantsJson(c)) return c.json({ data: page.events, next_cursor: page.nextCursor });
    const names = await this.#names(page.events.flatMap((e) => [e.actor, `user:${e.user_id}`]));
    const olderPath = page.nextCursor ? `/organizations/${id}/audit?before=${page.nextCursor}` : null;
    return renderPage(
      c,
      { title: `${organization.name}: audit log` },
      <OrganizationAuditPage
        organization={organization}
        events={page.events}
        names={names}
        olderPath={olderPath}
      />,
    );
  }

  /** The e-mail address of each `user:{id}` named, for the page. */
  async #names(actors: string[]): Promise<Map<string, string>> {
    const ids = [...new Set(actors.map((a) => /^user:(\d+)$/.exec(a)?.[1]).filter((x) => x !== undefined))];
    if (ids.length === 0) return new Map();
    const rows = await this.log.db
      .selectFrom('users')
      .select(['id', 'email'])
      .where('id', 'in', ids.map(Number))
      .execute();
    return new Map(rows.map((r) => [`user:${r.id}`, r.email]));
  }
}
