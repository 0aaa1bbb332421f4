import { ManualClock } from '../shared/clock.js';
import type { DeliveryMode, DeliveryOptions } from '../shared/delivery.js';
import type { ListeningSandbox } from '../shared/listen.js';
import type { SandboxCoupon, SandboxPlan } from './domain/catalog.js';
import { createStripeSandbox, type StripeSandbox } from './sandbox.js';

export interface ServeStripeSandboxOptions {
  host?: string;
  port?: number;
  webhookUrl?: string;
  webhookSecret?: string;
  plans?: SandboxPlan[];
  coupons?: SandboxCoupon[];
  /** Webhook delivery: `'realistic'` (default) or `'ordered'`; see `StripeSandboxOptions.delivery`. */
  delivery?: DeliveryMode | DeliveryOptions;
}

/**
 * Run the sandbox as a standalone server (the `tollgate sandbox:stripe` command). Its clock is
 * a ManualClock starting now; move it with `POST /_sandbox/advance {"seconds": n}`.
 */
export async function serveStripeSandbox(
  options: ServeStripeSandboxOptions = {},
): Promise<ListeningSandbox & { sandbox: StripeSandbox }> {
  if (options.webhookUrl && !options.webhookSecret) {
    throw new Error('serveStripeSandbox: webhookSecret is required with webhookUrl');
  }
  const sandbox = createStripeSandbox({
    clock: new ManualClock(),
    plans: options.plans,
    coupons: options.coupons,
    delivery: options.delivery,
    webhook: options.webhookUrl ? { url: options.webhookUrl, secret: options.webhookSecret! } : undefined,
  });
  const running = await sandbox.listen(options.port ?? 12111, options.host ?? '127.0.0.1');
  return { ...running, sandbox };
}
