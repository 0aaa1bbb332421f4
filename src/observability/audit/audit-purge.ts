import type { Kysely } from 'kysely';
import type { Clock } from '../../core/clock.js';
import type { Database } from '../../database/types.js';
import type { Application } from '../../kernel/application.js';
import { runEvery } from '../../kernel/interval-job.js';

const DAY_MS = 86_400_000;
/** Rows deleted per statement: short statements, so requests that write rows never wait long. */
const BATCH = 1000;

/** Deletes the audit events older than `retentionDays`, in batches; resolves with how many. */
export async function purgeAuditEvents(
  db: Kysely<Database>,
  clock: Clock,
  retentionDays: number,
): Promise<number> {
  const cutoff = new Date(clock.now().getTime() - retentionDays * DAY_MS).toISOString();
  let deleted = 0;
  for (;;) {
    const ids = db.selectFrom('audit_events').select('id').where('at', '<', cutoff).limit(BATCH);
    const result = await db.deleteFrom('audit_events').where('id', 'in', ids).executeTakeFirst();
    const n = Number(result.numDeletedRows);
    deleted += n;
    if (n < BATCH) return deleted;
  }
}

/**
 * This interval's purge, if this instance claims the interval (a row in `audit_purges`, whose
 * primary key lets one instance in): null when another has run it, or retention is off.
 */
export async function purgeAuditOnce(app: Application, everyMs: number): Promise<number | null> {
  const days = app.config.observability.audit.retentionDays;
  if (days <= 0) return null;
  const now = app.clock.now();
  const slot = `${everyMs}:${Math.floor(now.getTime() / everyMs)}`;
  const claimed = await app.db
    .insertInto('audit_purges')
    .values({ slot, started_at: now.toISOString(), deleted: null })
    .onConflict((oc) => oc.column('slot').doNothing())
    .executeTakeFirst();
  if (Number(claimed.numInsertedOrUpdatedRows ?? 0) !== 1) return null;
  const deleted = await purgeAuditEvents(app.db, app.clock, days);
  await app.db.updateTable('audit_purges').set({ deleted }).where('slot', '=', slot).execute();
  if (deleted > 0) app.logger.info({ deleted, retention_days: days }, 'audit events purged');
  return deleted;
}

/**
 * Purges audit events past `observability.audit.retentionDays` every `everyMs` (default: daily,
 * the first a minute after start) in this process. Every instance may schedule it: one of them runs each interval's purge
 * (`purgeAuditOnce`). Returns a function that stops it; closing the application stops it too.
 */
export function scheduleAuditPurge(
  app: Application,
  options: { everyMs?: number; firstAfterMs?: number } = {},
): () => void {
  const everyMs = options.everyMs ?? DAY_MS;
  return runEvery(app, () => purgeAuditOnce(app, everyMs), {
    everyMs,
    firstAfterMs: options.firstAfterMs,
    failure: 'audit purge failed',
  });
}
