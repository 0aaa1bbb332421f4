import type { Context } from 'hono';
import { InvoiceController, type InvoicePdfOptions } from 'tollgate/billing';

/** `GET /user/invoice/{invoice}`: the billing module's controller, with the service's own letterhead. */
export class ServiceInvoiceController extends InvoiceController {
  protected override pdfOptions(_c: Context): InvoicePdfOptions {
    const { name, url } = this.config.app;
    return { vendor: name, product: `${name} API subscription`, url };
  }
}
