import type { Context } from 'hono';
import { z } from 'zod';
import type { TollgateConfig } from '../../core/config.js';
import { ConfigKey } from '../../core/keys.js';
import { validate } from '../../core/validation.js';
import { bearerMatches } from '../metrics-controller.js';
import { AuditLog } from './audit-log.js';
import { AuditReader, decodeCursor } from './audit-reader.js';

const isoTime = z.iso.datetime({
  offset: true,
  error: 'The value must be an ISO-8601 time (2026-01-15T12:00:00Z).',
});

const querySchema = z.strictObject({
  actor: z.string().min(1).max(191).optional(),
  kind: z.string().min(1).max(64).optional(),
  user_id: z.coerce.number().int().positive().optional(),
  since: isoTime.optional(),
  until: isoTime.optional(),
  limit: z.coerce.number().int().min(1).max(200).optional(),
  cursor: z
    .string()
    .refine((c) => decodeCursor(c) !== undefined, 'The cursor is not one this API gave.')
    .optional(),
});

/** ISO-8601 with an offset, as stored (UTC, milliseconds): so text comparison orders by time. */
const stored = (time: string | undefined) => (time === undefined ? undefined : new Date(time).toISOString());

/**
 * `GET /audit/events`: the audit log for operators, newest first, filtered by `actor`, `kind`,
 * `user_id`, `since` and `until`, in pages (`limit`, `cursor` from the last page's `next_cursor`).
 * Only with `Authorization: Bearer <AUDIT_TOKEN>`; without a token configured it is not there.
 */
export class AuditController {
  static inject = [ConfigKey, AuditLog] as const;

  constructor(
    private readonly config: TollgateConfig,
    private readonly log: AuditLog,
  ) {}

  async index(c: Context): Promise<Response> {
    const token = this.config.observability.audit.token;
    c.header('Cache-Control', 'no-store');
    if (!token) return c.json({ message: 'Not Found' }, 404);
    if (!bearerMatches(c.req.header('authorization'), token)) {
      c.header('WWW-Authenticate', 'Bearer realm="audit"');
      return c.json({ message: 'Unauthenticated.' }, 401);
    }
    const input = validate(querySchema, c.req.query());
    const page = await new AuditReader(this.log).page(
      {
        actor: input.actor,
        kind: input.kind,
        userId: input.user_id,
        since: stored(input.since),
        until: stored(input.until),
      },
      { limit: input.limit, cursor: input.cursor },
    );
    return c.json({ data: page.events, next_cursor: page.nextCursor });
  }
}
