import { TestClock } from '../../core/clock.js';
import type { SandboxCoupon, SandboxPlan } from './resources/catalog.js';
import { createStripeSandbox, type RunningStripeSandbox, type StripeSandbox } from './sandbox.js';

export interface ServeStripeSandboxOptions {
  host?: string;
  port?: number;
  webhookUrl?: string;
  webhookSecret?: string;
  plans?: SandboxPlan[];
  coupons?: SandboxCoupon[];
}

/**
 * Run the sandbox as a standalone server (the `tollgate sandbox:stripe` command). Its clock is
 * a TestClock starting now; move it with `POST /_sandbox/advance {"seconds": n}`.
 */
export async function serveStripeSandbox(
  options: ServeStripeSandboxOptions = {},
): Promise<RunningStripeSandbox & { sandbox: StripeSandbox }> {
  if (options.webhookUrl && !options.webhookSecret) {
    throw new Error('serveStripeSandbox: webhookSecret is required with webhookUrl');
  }
  const sandbox = createStripeSandbox({
    clock: new TestClock(),
    plans: options.plans,
    coupons: options.coupons,
    webhook: options.webhookUrl ? { url: options.webhookUrl, secret: options.webhookSecret! } : undefined,
  });
  const running = await sandbox.listen(options.port ?? 12111, options.host ?? '127.0.0.1');
  return { ...running, sandbox };
}
