import { randomBytes } from 'node:crypto';
import type { Command } from 'commander';
import { sandboxCoupons, sandboxPlans } from '../../billing/providers/stripe/catalog.js';
import { loadConfig, type TollgateConfig } from '../../foundation/config.js';
import { serveStripeSandbox } from '../../sandbox/stripe/index.js';
import { CliError, loadApplication } from '../context.js';

interface SandboxOptions {
  host: string;
  port: string;
  webhookUrl?: string;
  webhookSecret?: string;
}

/** The application's configuration if there is an application, else the config file and environment. */
async function billingConfig(): Promise<TollgateConfig['billing']> {
  try {
    const app = await loadApplication();
    try {
      return app.config.billing;
    } finally {
      await app.close();
    }
  } catch (err) {
    if (!(err instanceof CliError)) throw err;
    return (await loadConfig()).billing;
  }
}

function untilSignal(): Promise<string> {
  return new Promise((resolve) => {
    process.once('SIGINT', () => resolve('SIGINT'));
    process.once('SIGTERM', () => resolve('SIGTERM'));
  });
}

export function register(program: Command): void {
  program
    .command('sandbox:stripe')
    .description('Run the Stripe sandbox alone, seeded with the configured billing plans and coupons.')
    .option('--host <host>', 'interface to listen on', '127.0.0.1')
    .option('--port <port>', 'port to listen on (0: any free port)', '12111')
    .option('--webhook-url <url>', 'deliver signed webhooks here, e.g. http://127.0.0.1:3000/stripe/webhook')
    .option('--webhook-secret <secret>', 'the signing secret for webhooks (default: a fresh whsec_…)')
    .action(async (options: SandboxOptions) => {
      const port = Number(options.port);
      if (!Number.isInteger(port) || port < 0 || port > 65_535) throw new CliError('--port must be 0–65535.');
      const billing = await billingConfig();
      const webhookSecret = options.webhookUrl
        ? (options.webhookSecret ?? `whsec_${randomBytes(24).toString('hex')}`)
        : undefined;
      const running = await serveStripeSandbox({
        host: options.host,
        port,
        webhookUrl: options.webhookUrl,
        webhookSecret,
        plans: sandboxPlans(billing.plans, billing.currency),
        coupons: sandboxCoupons(billing.coupons, billing.currency),
      });
      console.log(`Stripe sandbox listening on ${running.url}`);
      console.log(`Plans: ${billing.plans.map((p) => p.id).join(', ') || '(none)'}`);
      console.log(
        'Point Tollgate at it: billing.stripe.apiBase =',
        running.url,
        ', STRIPE_SECRET=sk_test_sandbox',
      );
      if (webhookSecret)
        console.log(`Webhooks to ${options.webhookUrl}, STRIPE_WEBHOOK_SECRET=${webhookSecret}`);
      console.log(`Move its clock: curl -X POST ${running.url}/_sandbox/advance -d seconds=86400`);
      const signal = await untilSignal();
      console.log(`${signal}: stopping the Stripe sandbox.`);
      await running.close();
    });
}
