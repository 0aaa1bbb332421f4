import type { Context } from 'hono';
import { currentUser } from '../../auth/context.js';
import { AuditLog } from '../../observability/audit/audit-log.js';
import { AuditReader, decodeCursor } from '../../observability/audit/audit-reader.js';
import { renderPage } from '../../views/render.js';
import { SecurityLogPage } from './security-log-page.js';

const PAGE_SIZE = 50;

/** `GET /account/security-log`: the signed-in user's own audit events, in pages of 50 (no script). */
export class SecurityLogController {
  static inject = [AuditLog] as const;

  constructor(private readonly log: AuditLog) {}

  async show(c: Context): Promise<Response> {
    const user = currentUser(c)!;
    const before = c.req.query('before');
    // A link from an older page that is not ours: the first page, rather than an error.
    const cursor = before !== undefined && decodeCursor(before) !== undefined ? before : undefined;
    const page = await new AuditReader(this.log).page({ userId: user.id }, { limit: PAGE_SIZE, cursor });
    const olderPath = page.nextCursor ? `/account/security-log?before=${page.nextCursor}` : null;
    return renderPage(
      c,
      { title: 'Security log' },
      <SecurityLogPage events={page.events} olderPath={olderPath} />,
    );
  }
}
