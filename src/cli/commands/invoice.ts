import { writeFile } from 'node:fs/promises';
import type { Command } from 'commander';
import { Users } from '../../auth/users.js';
import { Customers } from '../../billing/customers/customers.js';
import { BillingError } from '../../billing/errors.js';
import { Invoices } from '../../billing/invoices/invoices.js';
import type { Application } from '../../kernel/application.js';
import { CliError, withApplication } from '../context.js';

interface InvoicePdfOptions {
  invoice: string;
  customer?: string;
  user?: string;
  out?: string;
}

/** The customer id of a user, or of a deleted account (kept in `account_deletions` for its invoices). */
async function customerOfUser(app: Application, userId: number): Promise<string> {
  const user = await app.container.make(Users).find(userId);
  const live = user ? app.container.make(Customers).idOf(user) : undefined;
  if (live) return live;
  if (!user && (await app.db.introspection.getTables()).some((t) => t.name === 'account_deletions')) {
    const deleted = await app.db
      .selectFrom('account_deletions')
      .select('billing_customer_id')
      .where('user_id', '=', userId)
      .executeTakeFirst();
    if (deleted?.billing_customer_id) return deleted.billing_customer_id;
  }
  throw new CliError(
    `User ${userId} has no billing customer${user ? '' : ' (no such user, live or deleted)'}.`,
  );
}

export function register(program: Command): void {
  program
    .command('invoice:pdf')
    .description(
      "Write an invoice's PDF, also of a deleted account (its invoices are kept under its customer id).",
    )
    .requiredOption('--invoice <id>', "the provider's invoice id (in_…, or a Braintree transaction id)")
    .option('--customer <id>', "the provider's customer id")
    .option('--user <id>', 'the user (or deleted account) whose customer it is')
    .option('--out <file>', 'where to write it (default: <invoice>.pdf)')
    .action((options: InvoicePdfOptions) =>
      withApplication(async (app) => {
        if (!app.container.has(Invoices))
          throw new CliError('The application does not register billingProvider().');
        if (!options.customer === !options.user)
          throw new CliError('Give --customer or --user (one of them).');
        const userId = Number(options.user);
        if (options.user && !Number.isInteger(userId))
          throw new CliError('--user must be a user id (a number).');
        const customer = options.customer ?? (await customerOfUser(app, userId));
        try {
          const pdf = await app.container.make(Invoices).downloadForCustomer(customer, options.invoice);
          const out = options.out ?? `${options.invoice}.pdf`;
          await writeFile(out, Buffer.from(await pdf.arrayBuffer()));
          console.log(`Wrote ${out} (invoice ${options.invoice} of customer ${customer}).`);
        } catch (err) {
          if (err instanceof BillingError) throw new CliError(err.message);
          throw err;
        }
      }),
    );
}
