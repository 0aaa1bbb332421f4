import type { TollgateConfig } from '../../core/config.js';
import type { BillableColumns, BillableModel } from '../billable-user.js';
import type { InvoicePdfOptions } from './invoice-pdf.js';

/** The method on file, as a receipt names it: `Visa ending in 4242`, `PayPal (ann@example.com)`. */
export function paymentMethodText(
  user: Pick<BillableColumns, 'paypal_email' | 'card_brand' | 'card_last_four'>,
): string | undefined {
  if (user.paypal_email) return `PayPal (${user.paypal_email})`;
  if (user.card_last_four) return `${user.card_brand ?? 'Card'} ending in ${user.card_last_four}`;
  return undefined;
}

/**
 * What a PDF shows when the caller does not say: the seller from `billing.seller` (its name
 * defaulting to `app.name`), the product named after the app, the user as the customer and the
 * payment method on file. An owner with `invoiceAddressee()` (an organization) names itself, with
 * its tax id and address.
 */
export function invoicePdfDefaults(config: TollgateConfig, user: BillableModel): InvoicePdfOptions {
  return {
    ...sellerPdfDefaults(config),
    customer: user.invoiceAddressee?.() ?? { name: user.name, email: user.email },
    paymentMethod: paymentMethodText(user),
  };
}

/** The seller's half of the defaults: `billing.seller`, its name defaulting to `app.name`. */
export function sellerPdfDefaults(config: TollgateConfig): InvoicePdfOptions {
  const { seller } = config.billing;
  return {
    vendor: seller.name || config.app.name,
    product: config.app.name,
    address: seller.address,
    email: seller.email || undefined,
    vatId: seller.taxId || undefined,
  };
}
