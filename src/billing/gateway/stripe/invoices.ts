import type Stripe from 'stripe';
import { BillingError } from '../../errors.js';
import type { GatewayInvoice, InvoiceForInput } from '../payment-gateway.js';
import { isMissing, stripeCall } from './errors.js';
import { mapInvoice } from './map.js';
import { isPaymentMethod } from './payments.js';
import type { StripeTaxRates } from './tax-rates.js';

/** Invoices over the current API: one-off invoices paid at once, lists, and the upcoming preview. */
export class StripeInvoices {
  constructor(
    private readonly stripe: Stripe,
    private readonly taxRates: StripeTaxRates,
  ) {}

  /** Mapped with the percentages of the Tax Rates they name. */
  private async map(invoice: Stripe.Invoice): Promise<GatewayInvoice> {
    return mapInvoice(invoice, await this.taxRates.percentagesOf([invoice]));
  }

  async invoiceFor(input: InvoiceForInput): Promise<GatewayInvoice> {
    const key = input.idempotencyKey;
    const {
      currency,
      payment_method: paymentMethod,
      ...rest
    } = input.options as { currency: string; payment_method?: string } & Record<string, unknown>;
    await stripeCall(() =>
      this.stripe.invoiceItems.create(
        {
          ...(rest as object),
          customer: input.customerId,
          amount: input.amount,
          currency,
          description: input.description,
        },
        { idempotencyKey: `${key}:item` },
      ),
    );
    const draft = await stripeCall(() =>
      this.stripe.invoices.create(
        { customer: input.customerId, pending_invoice_items_behavior: 'include', auto_advance: true },
        { idempotencyKey: `${key}:invoice` },
      ),
    );
    const id = draft.id ?? '';
    await stripeCall(() => this.stripe.invoices.finalizeInvoice(id));
    // A failed payment leaves the invoice open; Stripe retries it unless it is voided.
    const paid = await stripeCall(
      () =>
        this.stripe.invoices.pay(id, isPaymentMethod(paymentMethod) ? { payment_method: paymentMethod } : {}),
      { invoiceId: id },
    );
    return this.map(paid);
  }

  async voidInvoice(id: string): Promise<GatewayInvoice> {
    return this.map(await stripeCall(() => this.stripe.invoices.voidInvoice(id)));
  }

  async list(customerId: string, options: { includePending: boolean }): Promise<GatewayInvoice[]> {
    const list = await stripeCall(() =>
      this.stripe.invoices.list({ customer: customerId, limit: 100, expand: ['data.discounts'] }),
    );
    const shown = list.data.filter((invoice) => options.includePending || invoice.status === 'paid');
    const rates = await this.taxRates.percentagesOf(shown);
    return shown
      .map((invoice) => mapInvoice(invoice, rates))
      .sort((a, b) => b.date.getTime() - a.date.getTime());
  }

  async find(customerId: string, id: string): Promise<GatewayInvoice | null> {
    try {
      const invoice = await stripeCall(() => this.stripe.invoices.retrieve(id, { expand: ['discounts'] }));
      const mapped = await this.map(invoice);
      return mapped.customerId === customerId ? mapped : null;
    } catch (err) {
      if (isMissing(err)) return null;
      throw err;
    }
  }

  async upcoming(customerId: string, subscriptionId?: string): Promise<GatewayInvoice | null> {
    try {
      const params: Stripe.InvoiceCreatePreviewParams = { customer: customerId, expand: ['discounts'] };
      if (subscriptionId) params.subscription = subscriptionId;
      const preview = await stripeCall(() => this.stripe.invoices.createPreview(params));
      return await this.map(preview);
    } catch (err) {
      // `invoice_upcoming_none`: nothing to bill (https://docs.stripe.com/error-codes/invoice-upcoming-none).
      if (err instanceof BillingError && err.providerCode === 'invoice_upcoming_none') return null;
      throw err;
    }
  }
}
