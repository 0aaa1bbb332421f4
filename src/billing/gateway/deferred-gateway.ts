import type { BillingCapabilities, BillingProvider } from './payment-gateway.js';

type Method = Exclude<keyof BillingProvider, 'capabilities' | 'close'>;

const methods: Method[] = [
  'createCustomer',
  'updatePaymentMethod',
  'createSubscription',
  'updateSubscription',
  'cancelSubscription',
  'resumeSubscription',
  'findSubscription',
  'charge',
  'invoiceFor',
  'voidInvoice',
  'invoices',
  'findInvoice',
  'upcomingInvoice',
  'parseWebhook',
];

/**
 * A provider made on first use. The embedded sandboxes start a server; deferring it means a CLI
 * command that never bills (`migrate`, `route:list`) never opens a port or holds the process.
 */
export function deferredProvider(
  capabilities: BillingCapabilities,
  make: () => Promise<BillingProvider>,
): BillingProvider {
  let made: Promise<BillingProvider> | undefined;
  const get = () => {
    made ??= make().catch((err: unknown) => {
      made = undefined;
      throw err;
    });
    return made;
  };
  const provider: Record<string, unknown> = {
    capabilities,
    close: async () => {
      if (made) await (await made).close?.();
      made = undefined;
    },
  };
  for (const method of methods) {
    provider[method] = async (...args: unknown[]) =>
      ((await get())[method] as (...a: unknown[]) => Promise<unknown>)(...args);
  }
  return provider as unknown as BillingProvider;
}
