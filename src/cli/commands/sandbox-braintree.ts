import type { Command } from 'commander';
import { sandboxAddOns, sandboxDiscounts, sandboxPlans } from '../../billing/gateway/braintree/catalog.js';
import { meteredSeeds } from '../../billing/gateway/metered-seeds.js';
import { loadBraintreeSandbox } from '../../billing/sandbox-package.js';
import { CliError } from '../context.js';
import { parsePort, sandboxConfig, untilSignal } from '../sandbox-support.js';

interface SandboxOptions {
  host: string;
  port: string;
  webhookUrl?: string;
}

/** `tollgate sandbox:braintree`: the Braintree sandbox as a standalone server (see docs/sandbox.md). */
export function register(program: Command): void {
  program
    .command('sandbox:braintree')
    .description(
      'Run the Braintree sandbox alone, seeded with the configured plans, coupons as discounts, and plan-credit.',
    )
    .option('--host <host>', 'interface to listen on', '127.0.0.1')
    .option('--port <port>', 'port to listen on (0: any free port)', '4500')
    .option(
      '--webhook-url <url>',
      'POST signed notifications here, e.g. http://127.0.0.1:3000/braintree/webhook',
    )
    .action(async (options: SandboxOptions) => {
      const port = parsePort(options.port);
      if (options.webhookUrl && !URL.canParse(options.webhookUrl))
        throw new CliError('--webhook-url must be an absolute URL.');
      const { serveBraintreeSandbox } = await loadBraintreeSandbox(
        'The offline sandbox is not installed: `npm install @tollgate/sandbox`, then run `tollgate sandbox:braintree` again.',
      );
      const config = await sandboxConfig();
      const { billing } = config;
      // Listen for the signal before the banner: whoever reads the banner may signal at once.
      const stopped = untilSignal();
      const plans = sandboxPlans(billing.plans, billing.currency);
      const { server } = await serveBraintreeSandbox({
        host: options.host,
        port,
        webhookUrl: options.webhookUrl,
        // No configured plans: the sandbox's own monthly and yearly plans.
        plans: plans.length ? plans : undefined,
        discounts: sandboxDiscounts(billing.coupons, billing.currency),
        addOns: sandboxAddOns(meteredSeeds(config), billing.currency),
        currencyIsoCode: billing.currency.toUpperCase(),
        log: (line) => console.log(line),
      });
      console.log(
        `Point Tollgate at it: BILLING_EDITION=braintree BRAINTREE_API_BASE=${server.url} and the merchant id and keys above`,
      );
      const signal = await stopped;
      console.log(`${signal}: stopping the Braintree sandbox.`);
      await server.close();
    });
}
