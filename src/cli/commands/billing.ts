import { randomBytes } from 'node:crypto';
import type { Command } from 'commander';
import { meteredSeeds } from '../../billing/gateway/metered-seeds.js';
import { sandboxCoupons, sandboxMeteredPlans, sandboxPlans } from '../../billing/gateway/stripe/catalog.js';
import { loadStripeSandbox } from '../../billing/sandbox-package.js';
import { parsePort, sandboxConfig, untilSignal } from '../sandbox-support.js';

interface SandboxOptions {
  host: string;
  port: string;
  webhookUrl?: string;
  webhookSecret?: string;
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
      const port = parsePort(options.port);
      const { serveStripeSandbox } = await loadStripeSandbox(
        'The offline sandbox is not installed: `npm install @tollgate/sandbox`, then run `tollgate sandbox:stripe` again.',
      );
      const config = await sandboxConfig();
      const { billing } = config;
      const metered = meteredSeeds(config);
      const webhookSecret = options.webhookUrl
        ? (options.webhookSecret ?? `whsec_${randomBytes(24).toString('hex')}`)
        : undefined;
      const stopped = untilSignal();
      const running = await serveStripeSandbox({
        host: options.host,
        port,
        webhookUrl: options.webhookUrl,
        webhookSecret,
        plans: [
          ...sandboxPlans(billing.plans, billing.currency),
          ...sandboxMeteredPlans(metered, billing.currency),
        ],
        coupons: sandboxCoupons(billing.coupons, billing.currency),
      });
      console.log(`Stripe sandbox listening on ${running.url}`);
      console.log(`Plans: ${billing.plans.map((p) => p.id).join(', ') || '(none)'}`);
      if (metered.length > 0)
        console.log(`Metered prices: ${metered.map((m) => `${m.price} (meter ${m.meter})`).join(', ')}`);
      console.log(
        'Point Tollgate at it: billing.stripe.apiBase =',
        running.url,
        ', STRIPE_SECRET=sk_test_sandbox',
      );
      if (webhookSecret)
        console.log(`Webhooks to ${options.webhookUrl}, STRIPE_WEBHOOK_SECRET=${webhookSecret}`);
      console.log(`Move its clock: curl -X POST ${running.url}/_sandbox/advance -d seconds=86400`);
      const signal = await stopped;
      console.log(`${signal}: stopping the Stripe sandbox.`);
      await running.close();
    });
}
