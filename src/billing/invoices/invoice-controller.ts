import type { Context } from 'hono';
import type { TollgateConfig } from '../../core/config.js';
import { HttpError } from '../../core/errors.js';
import { ConfigKey } from '../../core/keys.js';
import { wantsJson } from '../../http/respond.js';
import { BillingError } from '../errors.js';
import type { InvoicePdfOptions } from './invoice-pdf.js';

interface CanDownload {
  downloadInvoice(id: string, options: InvoicePdfOptions): Promise<Response>;
}

/**
 * The spec's example route `GET /user/invoice/{invoice}`: the signed-in user's invoice as a PDF.
 * Put it behind the session and `auth` (another user's invoice is a 404, never a PDF). The seller's
 * details come from `billing.seller`; override `pdfOptions` for anything else (the product name).
 *
 * @example
 * app.router.get('/user/invoice/{invoice}', [InvoiceController, 'show']).middleware('web', 'auth');
 */
export class InvoiceController {
  static inject = [ConfigKey] as const;

  constructor(protected readonly config: TollgateConfig) {}

  async show(invoice: string, c: Context): Promise<Response> {
    const user = c.get('user') as (CanDownload & object) | undefined;
    if (!user) throw new HttpError(401, 'Unauthenticated.');
    if (typeof user.downloadInvoice !== 'function') {
      throw new HttpError(500, 'The user model is not Billable: extend it with Billable(User).');
    }
    try {
      return await user.downloadInvoice(invoice, this.pdfOptions(c));
    } catch (err) {
      // A browser following a link gets the site's 404 page; an API client keeps the JSON body and code.
      if (err instanceof BillingError && err.status === 404 && !wantsJson(c))
        throw new HttpError(404, err.message);
      throw err;
    }
  }

  /** Empty: seller, product, customer and payment method come from the configuration and the user. */
  protected pdfOptions(_c: Context): InvoicePdfOptions {
    return {};
  }
}
