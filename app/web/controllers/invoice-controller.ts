import type { Context } from 'hono';
import { InvoiceController, type InvoicePdfOptions } from 'tollgate/billing';

/**
 * `GET /user/invoice/{invoice}`: the billing module's controller. The seller's letterhead comes
 * from `billing.seller` (`BILLING_SELLER_*`); the service names its product and adds its URL.
 */
export class ServiceInvoiceController extends InvoiceController {
  protected override pdfOptions(_c: Context): InvoicePdfOptions {
    const { name, url } = this.config.app;
    return { product: `${name} API subscription`, url };
  }
}
