import type { GatewayCapabilities } from './capabilities.js';
import type { PaymentGateway } from './payment-gateway.js';

type Method = Exclude<keyof PaymentGateway, 'capabilities' | 'close'>;

const methods: Method[] = [
  'createCustomer',
  'updatePaymentMethod',
  'createSubscription',
  'updateSubscription',
  'cancelSubscription',
  'abandonSubscription',
  'resumeSubscription',
  'findSubscription',
  'listSubscriptions',
  'findCustomer',
  'charge',
  'invoiceFor',
  'voidInvoice',
  'invoices',
  'findInvoice',
  'upcomingInvoice',
  'createSetupIntent',
  'findSetupIntent',
  'findPayment',
  'latestPayment',
  'completePayment',
  'reportUsage',
  'createCheckoutSession',
  'findCheckoutSession',
  'createBillingPortalSession',
  'parseWebhook',
];

/**
 * A gateway made on first use. The embedded sandboxes start a server; deferring it means a CLI
 * command that never bills (`migrate`, `route:list`) never opens a port or holds the process.
 */
export function deferredGateway(
  capabilities: GatewayCapabilities,
  make: () => Promise<PaymentGateway>,
): PaymentGateway {
  let made: Promise<PaymentGateway> | undefined;
  const get = () => {
    made ??= make().catch((err: unknown) => {
      made = undefined;
      throw err;
    });
    return made;
  };
  const gateway: Record<string, unknown> = {
    capabilities,
    close: async () => {
      if (made) await (await made).close?.();
      made = undefined;
    },
  };
  for (const method of methods) {
    gateway[method] = async (...args: unknown[]) =>
      ((await get())[method] as (...a: unknown[]) => Promise<unknown>)(...args);
  }
  return gateway as unknown as PaymentGateway;
}
