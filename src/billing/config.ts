import type { ConfigSlice } from '../core/config.js';

export type BillingEdition = 'stripe' | 'braintree';

export interface PlanConfig {
  /** The plan's ID at the provider (Stripe price/plan id, Braintree plan id). */
  id: string;
  name: string;
  /** In the provider's amount unit: minor units for Stripe, a decimal string for Braintree. */
  amount: number | string;
  interval: 'month' | 'year';
  trialDays?: number;
  description?: string;
}

export interface CouponConfig {
  id: string;
  percentOff?: number;
  amountOff?: number | string;
}

/** Who issues the invoices: the letterhead of the PDF. An empty `name` means `app.name`. */
export interface SellerConfig {
  name: string;
  /** Street, city, country…: one entry a line. */
  address: string[];
  /** VAT number or other tax id, shown as given (`VAT: DE123456789`). */
  taxId: string;
  email: string;
}

export interface BillingConfig {
  edition: BillingEdition;
  currency: string;
  currencySymbol: string;
  plans: PlanConfig[];
  coupons: CouponConfig[];
  /**
   * Whether a `past_due` subscription (a renewal failed, the provider still retries) still counts
   * as subscribed. Default true; false locks the user out from the first failed renewal.
   */
  keepPastDueSubscribed: boolean;
  seller: SellerConfig;
  stripe: { key: string; secret: string; webhookSecret: string; apiBase: string };
  braintree: {
    environment: string;
    merchantId: string;
    publicKey: string;
    privateKey: string;
    apiBase: string;
  };
}

declare module '../core/config.js' {
  interface TollgateConfig {
    billing: BillingConfig;
  }
}

export const billingConfig: ConfigSlice<'billing'> = {
  defaults: {
    billing: {
      edition: 'stripe',
      currency: 'usd',
      currencySymbol: '$',
      plans: [],
      coupons: [],
      keepPastDueSubscribed: true,
      seller: { name: '', address: [], taxId: '', email: '' },
      stripe: { key: '', secret: '', webhookSecret: '', apiBase: '' },
      braintree: { environment: 'sandbox', merchantId: '', publicKey: '', privateKey: '', apiBase: '' },
    },
  },
  fromEnv: (env) => ({
    billing: {
      edition: (env.BILLING_EDITION as BillingEdition) || undefined,
      currency: env.BILLING_CURRENCY || undefined,
      currencySymbol: env.BILLING_CURRENCY_SYMBOL || undefined,
      seller: {
        name: env.BILLING_SELLER_NAME || undefined,
        // Lines separated by `|` or newlines: `1 Market St|San Francisco, CA 94105|USA`.
        address: env.BILLING_SELLER_ADDRESS
          ? env.BILLING_SELLER_ADDRESS.split(/\||\n/)
              .map((line) => line.trim())
              .filter(Boolean)
          : undefined,
        taxId: env.BILLING_SELLER_TAX_ID || undefined,
        email: env.BILLING_SELLER_EMAIL || undefined,
      },
      stripe: {
        key: env.STRIPE_KEY || undefined,
        secret: env.STRIPE_SECRET || undefined,
        webhookSecret: env.STRIPE_WEBHOOK_SECRET || undefined,
        apiBase: env.STRIPE_API_BASE || undefined,
      },
      braintree: {
        environment: env.BRAINTREE_ENVIRONMENT || undefined,
        merchantId: env.BRAINTREE_MERCHANT_ID || undefined,
        publicKey: env.BRAINTREE_PUBLIC_KEY || undefined,
        privateKey: env.BRAINTREE_PRIVATE_KEY || undefined,
        apiBase: env.BRAINTREE_API_BASE || undefined,
      },
    },
  }),
};
