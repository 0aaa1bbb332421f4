import type { Command } from 'commander';
import { Users } from '../../auth/users.js';
import { PaymentGatewayKey } from '../../billing/gateway/payment-gateway.js';
import type { Application } from '../../kernel/application.js';
import { Plans } from '../../plans/provider.js';
import { UsageReporter, type UsageReportLine } from '../../plans/reporting/usage-reporter.js';
import { CliError, CliExit, withApplication } from '../context.js';

export interface UsageReportCommandOptions {
  user?: string;
  json?: boolean;
}

/**
 * `usage:report` on an application: reports the metered usage not yet sent to the provider and
 * prints what it did (text, or JSON with `--json`) through `print`. Safe to run at any time and
 * any number of times, also from several machines at once. Answers the exit code: 1 when a
 * user's report failed (it is tried again next time), else 0.
 */
export async function usageReport(
  app: Application,
  options: UsageReportCommandOptions,
  print: (line: string) => void = console.log,
): Promise<number> {
  if (!app.container.has(PaymentGatewayKey) || !app.container.has(UsageReporter))
    throw new CliError('Billing and plans are not set up in this application.');
  let userId: number | undefined;
  if (options.user !== undefined) {
    const users = app.container.make(Users);
    const user = /^\d+$/.test(options.user)
      ? await users.find(Number(options.user))
      : await users.findByEmail(options.user);
    if (!user) throw new CliError(`No user ${options.user}.`);
    userId = user.id;
  }
  const metered = [...app.container.make(Plans).catalog.plans.values()].some((p) => p.metered);
  const lines = metered ? await app.container.make(UsageReporter).report({ userId }) : [];
  const code = lines.some((l) => l.status === 'failed') ? 1 : 0;
  if (options.json) {
    print(JSON.stringify({ reports: lines }));
    return code;
  }
  if (!metered) print('No plan declares a metered price (plans.definitions.*.metered): nothing to report.');
  else if (lines.length === 0) print('No subscriber of a metered plan: nothing to report.');
  for (const line of lines) print(describe(line));
  return code;
}

function describe(l: UsageReportLine): string {
  const who = `${l.owner.type} ${l.owner.id}`;
  if (l.status === 'skipped') return `${who}: skipped, ${l.reason}`;
  if (l.status === 'failed') return `${who}: FAILED, ${l.reason} (the next run tries again)`;
  const what = `${who} (${l.plan}), ${l.meter} since ${l.periodStart}: ${l.total} unit(s)`;
  return l.status === 'reported' ? `${what}, ${l.sent} reported now` : `${what}, already reported`;
}

export function register(program: Command): void {
  program
    .command('usage:report')
    .description('Report metered usage to the payment provider (only what it does not have yet)')
    .option('--user <email|id>', 'only this user')
    .option('--json', 'machine-readable output')
    .action((options: UsageReportCommandOptions) =>
      withApplication(async (app) => {
        await app.migrate();
        const code = await usageReport(app, options);
        if (code !== 0) throw new CliExit(code);
      }),
    );
}
