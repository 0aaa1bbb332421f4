import type { Command } from 'commander';
import { Users } from '../../auth/users.js';
import { BillableStores } from '../../billing/billable-stores.js';
import type { BillableRef } from '../../billing/billable-user.js';
import { PaymentGatewayKey } from '../../billing/gateway/payment-gateway.js';
import type { Drift, ReconcileReport } from '../../billing/reconcile/drift.js';
import { Reconciler } from '../../billing/reconcile/reconciler.js';
import type { Application } from '../../kernel/application.js';
import { CliError, CliExit, withApplication } from '../context.js';

export interface ReconcileCommandOptions {
  user?: string;
  organization?: string;
  fix?: boolean;
  json?: boolean;
  name?: string;
}

const WHAT: Record<Drift['kind'], string> = {
  orphaned: 'live at the provider, no local row',
  replaced: 'cancelled at the provider by a swap; its live replacement has no row',
  missing_at_provider: 'no such subscription at the provider',
  mismatch: 'differs from the provider',
  missing_customer: "the owner's customer does not exist at the provider",
  duplicate: 'live at the provider, its row ended, and another live subscription has the name: billed twice',
};

/**
 * `billing:reconcile` on an application: prints the report (text, or JSON with `--json`) through
 * `print` and answers the exit code: 0 when clean (or all repaired), 1 when drift is left.
 */
export async function reconcile(
  app: Application,
  options: ReconcileCommandOptions,
  print: (line: string) => void = console.log,
): Promise<number> {
  if (!app.container.has(PaymentGatewayKey)) throw new CliError('Billing is not set up in this application.');
  const owner = await ownerOf(app, options);
  const report = await app.container
    .make(Reconciler)
    .run({ owner, fix: Boolean(options.fix), adoptAs: options.name ?? 'default' });
  const left = report.drift.filter((d) => !d.fixed).length;
  if (options.json) print(JSON.stringify({ ...report, clean: left === 0 }));
  else for (const line of describe(report, Boolean(options.fix))) print(line);
  return left === 0 ? 0 : 1;
}

/** `--user EMAIL|ID` or `--organization ID`: the one owner to check, if any. */
async function ownerOf(app: Application, options: ReconcileCommandOptions): Promise<BillableRef | undefined> {
  if (options.user !== undefined && options.organization !== undefined)
    throw new CliError('Give --user or --organization, not both.');
  if (options.organization !== undefined) {
    const stores = app.container.make(BillableStores);
    const id = /^\d+$/.test(options.organization) ? Number(options.organization) : Number.NaN;
    const ref = { type: 'organization', id };
    if (Number.isNaN(id) || !(await stores.find(ref)))
      throw new CliError(`No organization ${options.organization}.`);
    return ref;
  }
  if (options.user === undefined) return undefined;
  const users = app.container.make(Users);
  const user = /^\d+$/.test(options.user)
    ? await users.find(Number(options.user))
    : await users.findByEmail(options.user);
  if (!user) throw new CliError(`No user ${options.user}.`);
  return { type: 'user', id: user.id };
}

function describe(report: ReconcileReport, fix: boolean): string[] {
  const checked = `Checked ${report.owners} owner(s), ${report.subscriptions} subscription row(s).`;
  if (report.drift.length === 0) return [checked, 'No drift: every row matches the provider.'];
  const lines = [checked, `${report.drift.length} drift(s) found:`];
  for (const d of report.drift) {
    const row = d.subscriptionId === null ? 'no row' : `row ${d.subscriptionId} "${d.name}"`;
    lines.push(
      `  ${d.kind}  ${d.email} (${d.owner.type} ${d.owner.id}), ${row}, provider ${d.providerId}: ${WHAT[d.kind]}`,
    );
    for (const [field, v] of Object.entries(d.fields ?? {}))
      lines.push(`      ${field}: local ${JSON.stringify(v.local)}, provider ${JSON.stringify(v.provider)}`);
    if (fix)
      lines.push(
        d.fixed ? '      fixed' : `      NOT fixed: ${d.unfixed ?? 'cannot be repaired automatically'}`,
      );
  }
  if (!fix) lines.push('Run again with --fix to repair (the provider is the source of truth).');
  return lines;
}

export function register(program: Command): void {
  program
    .command('billing:reconcile')
    .description(
      'Compare local subscriptions and customers with the payment provider; --fix repairs the drift.',
    )
    .option('--user <email|id>', 'only this user')
    .option('--organization <id>', 'only this organization')
    .option('--fix', 'repair: adopt orphans, end rows gone at the provider, copy the provider state')
    .option(
      '--name <name>',
      'name for adopted subscriptions when the provider keeps none (Braintree)',
      'default',
    )
    .option('--json', 'machine-readable output')
    .action((options: ReconcileCommandOptions) =>
      withApplication(async (app) => {
        await app.migrate();
        const code = await reconcile(app, options);
        if (code !== 0) throw new CliExit(code);
      }),
    );
}
