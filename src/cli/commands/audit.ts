import type { Command } from 'commander';
import type { Application } from '../../kernel/application.js';
import { AuditLog } from '../../observability/audit/audit-log.js';
import { purgeAuditEvents } from '../../observability/audit/audit-purge.js';
import { type AuditFilter, AuditReader } from '../../observability/audit/audit-reader.js';
import { CliError, withApplication } from '../context.js';

export interface AuditExportOptions {
  since: string;
  until?: string;
  user?: string;
  kind?: string;
  actor?: string;
}

/** An ISO-8601 date or time given on the command line, as stored (UTC, milliseconds). */
function instant(value: string, flag: string): string {
  const time = /^\d{4}-\d\d-\d\d([T ][\d:.]+(Z|[+-]\d\d:?\d\d)?)?$/.test(value)
    ? Date.parse(value)
    : Number.NaN;
  if (Number.isNaN(time))
    throw new CliError(
      `${flag} must be an ISO-8601 date or time (2026-01-15 or 2026-01-15T12:00:00Z), got "${value}".`,
    );
  return new Date(time).toISOString();
}

function auditLogOf(app: Application): AuditLog {
  if (!app.container.has(AuditLog))
    throw new CliError('This application has no audit log (register observabilityProvider()).');
  return app.container.make(AuditLog);
}

/**
 * `audit:export`: the audit events from `--since` (and before `--until`), oldest first, one JSON
 * object a line (JSON Lines) through `print`, read in batches. Resolves with how many.
 */
export async function auditExport(
  app: Application,
  options: AuditExportOptions,
  print: (line: string) => void = console.log,
): Promise<number> {
  const filter: AuditFilter = { since: instant(options.since, '--since') };
  if (options.until !== undefined) filter.until = instant(options.until, '--until');
  if (options.user !== undefined) {
    if (!/^\d+$/.test(options.user)) throw new CliError(`--user must be a user id, got "${options.user}".`);
    filter.userId = Number(options.user);
  }
  if (options.kind !== undefined) filter.kind = options.kind;
  if (options.actor !== undefined) filter.actor = options.actor;
  let count = 0;
  for await (const event of new AuditReader(auditLogOf(app)).all(filter)) {
    print(JSON.stringify(event));
    count++;
  }
  return count;
}

export function register(program: Command): void {
  program
    .command('audit:export')
    .description('Print the audit log from --since as JSON Lines (one event a line, oldest first).')
    .requiredOption(
      '--since <time>',
      'the first moment to include (ISO-8601: 2026-01-15 or 2026-01-15T12:00:00Z)',
    )
    .option('--until <time>', 'the moment to stop before (ISO-8601)')
    .option('--user <id>', 'only the events about this user')
    .option('--kind <kind>', 'only this kind (sign-in.failed, client.deleted, …)')
    .option('--actor <actor>', 'only this actor (user:12, cli, webhook, anonymous, system)')
    .action((options: AuditExportOptions) =>
      withApplication(async (app) => {
        await auditExport(app, options);
      }),
    );
  program
    .command('audit:purge')
    .description(
      'Delete the audit events older than observability.audit.retentionDays (AUDIT_RETENTION_DAYS).',
    )
    .action(() =>
      withApplication(async (app) => {
        const log = auditLogOf(app);
        const days = app.config.observability.audit.retentionDays;
        if (days <= 0) {
          console.log('Retention is off (AUDIT_RETENTION_DAYS=0): nothing purged.');
          return;
        }
        const deleted = await purgeAuditEvents(log.db, app.clock, days);
        console.log(`Purged ${deleted} audit event${deleted === 1 ? '' : 's'} older than ${days} days.`);
      }),
    );
}
