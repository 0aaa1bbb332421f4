import type { DeliveryMode, DeliveryOptions } from '../shared/delivery.js';
import type { ListeningSandbox } from '../shared/listen.js';
import { type BraintreeSandbox, createBraintreeSandbox } from './sandbox.js';
import type { SandboxDiscount, SandboxPlan } from './store/records.js';

export interface ServeBraintreeSandboxOptions {
  host?: string;
  port?: number;
  webhookUrl?: string;
  plans?: SandboxPlan[];
  discounts?: SandboxDiscount[];
  /** Add-ons (the metered prices usage is reported to). */
  addOns?: SandboxDiscount[];
  /** The merchant account's currency; default USD. */
  currencyIsoCode?: string;
  merchantId?: string;
  publicKey?: string;
  privateKey?: string;
  /** Webhook delivery: `'realistic'` (default) or `'ordered'`; see `BraintreeSandboxOptions.delivery`. */
  delivery?: DeliveryMode | DeliveryOptions;
  /** Where the startup banner goes; defaults to stdout. */
  log?: (line: string) => void;
}

/**
 * Runs the sandbox as a standalone server for `tollgate sandbox:braintree`, on a clock that follows
 * real time and can be moved forward with `POST /_sandbox/advance {"seconds": n}`.
 */
export async function serveBraintreeSandbox(
  options: ServeBraintreeSandboxOptions = {},
): Promise<{ sandbox: BraintreeSandbox; server: ListeningSandbox }> {
  const sandbox = createBraintreeSandbox({
    plans: options.plans,
    discounts: options.discounts,
    addOns: options.addOns,
    currencyIsoCode: options.currencyIsoCode,
    merchantId: options.merchantId,
    publicKey: options.publicKey,
    privateKey: options.privateKey,
    delivery: options.delivery,
    webhook: options.webhookUrl ? { url: options.webhookUrl } : undefined,
  });
  const server = await sandbox.listen(options.port ?? 0, options.host ?? '127.0.0.1');
  const log = options.log ?? ((line: string) => process.stdout.write(`${line}\n`));
  const { merchantId, publicKey, privateKey } = sandbox.credentials;
  log(`Braintree sandbox listening on ${server.url}`);
  log(`  environment: host ${server.host}, port ${server.port}, ssl false`);
  log(`  merchant_id=${merchantId} public_key=${publicKey} private_key=${privateKey}`);
  log(
    `  plans: ${[...sandbox.store.plans.keys()].join(', ')}; discounts: ${[...sandbox.store.discounts.keys()].join(', ')}${sandbox.store.addOns.size ? `; add-ons: ${[...sandbox.store.addOns.keys()].join(', ')}` : ''}`,
  );
  log(`  webhooks: ${options.webhookUrl ?? '(none; set with webhookUrl)'}`);
  log(`  control: POST ${server.url}/_sandbox/advance {"seconds": n}, GET ${server.url}/_sandbox/state`);
  return { sandbox, server };
}
