import type { TollgateConfig } from '../../core/config.js';
import { ConfigKey } from '../../core/keys.js';
import { type BillableModel, refOf } from '../billable-user.js';
import { currency } from '../currencies.js';
import { Customers } from '../customers/customers.js';
import { BillingError } from '../errors.js';
import {
  type ChargeResponse,
  type GatewayInvoice,
  type PaymentGateway,
  PaymentGatewayKey,
} from '../gateway/payment-gateway.js';
import { RequestKeys } from '../request-keys.js';
import { Invoice } from './invoice.js';
import { type InvoicePdfOptions, invoicePdfResponse } from './invoice-pdf.js';
import { invoicePdfDefaults, sellerPdfDefaults } from './invoice-pdf-defaults.js';

/** One-off charges and invoices: `charge`, `invoiceFor`, `invoices`, `findInvoice`, `downloadInvoice`. */
export class Invoices {
  static inject = [PaymentGatewayKey, Customers, ConfigKey, RequestKeys] as const;

  constructor(
    private readonly gateway: PaymentGateway,
    private readonly customers: Customers,
    private readonly config: TollgateConfig,
    private readonly requestKeys: RequestKeys,
  ) {}

  private wrap = (data: GatewayInvoice): Invoice => new Invoice(data, this.config.billing.currencySymbol);

  /** A one-off charge in the edition's amount unit; no tax (the spec applies tax to subscriptions only). */
  async charge(
    user: BillableModel,
    amount: number,
    { requestKey, ...options }: Record<string, unknown> = {},
  ): Promise<ChargeResponse> {
    this.checkAmount(amount);
    return this.requestKeys.once(refOf(user), requestKey, {
      operation: 'charge',
      params: { amount, options },
      run: (key) =>
        this.gateway.charge({
          customerId: this.customers.idOf(user) ?? null,
          amount,
          options: { currency: this.config.billing.currency, ...options },
          idempotencyKey: key,
        }),
      save: (response) => JSON.stringify(response),
      load: async (saved) => JSON.parse(saved) as ChargeResponse,
    });
  }

  /** Invoice item + invoice + payment. A failed payment throws, with the open invoice's id on the error. */
  async invoiceFor(
    user: BillableModel,
    description: string,
    amount: number,
    { requestKey, ...options }: Record<string, unknown> = {},
  ): Promise<Invoice> {
    this.checkAmount(amount);
    const customerId = this.customers.idOrFail(user);
    const invoice = await this.requestKeys.once(refOf(user), requestKey, {
      operation: 'invoice-for',
      params: { description, amount, options },
      run: (key) =>
        this.gateway.invoiceFor({
          customerId,
          description,
          amount,
          options: { currency: this.config.billing.currency, ...options },
          idempotencyKey: key,
        }),
      save: (data) => JSON.stringify(data),
      load: async (saved) => reviveInvoice(JSON.parse(saved) as GatewayInvoice),
    });
    return this.wrap(invoice);
  }

  async list(user: BillableModel, includePending: boolean): Promise<Invoice[]> {
    const id = this.customers.idOf(user);
    if (!id) return [];
    return (await this.gateway.invoices(id, { includePending })).map(this.wrap);
  }

  async find(user: BillableModel, id: string): Promise<Invoice | undefined> {
    const customerId = this.customers.idOf(user);
    if (!customerId) return undefined;
    const invoice = await this.gateway.findInvoice(customerId, id);
    return invoice ? this.wrap(invoice) : undefined;
  }

  async findOrFail(user: BillableModel, id: string): Promise<Invoice> {
    const invoice = await this.find(user, id);
    if (!invoice) throw BillingError.invoiceNotFound(id);
    return invoice;
  }

  async upcoming(user: BillableModel, subscriptionId?: string): Promise<Invoice | undefined> {
    const customerId = this.customers.idOf(user);
    if (!customerId) return undefined;
    const invoice = await this.gateway.upcomingInvoice(customerId, subscriptionId);
    return invoice ? this.wrap(invoice) : undefined;
  }

  /** The PDF; what `options` leaves out comes from `billing.seller`, the app and the user. */
  async download(user: BillableModel, id: string, options: InvoicePdfOptions = {}): Promise<Response> {
    const invoice = await this.findOrFail(user, id);
    const given = Object.fromEntries(Object.entries(options).filter(([, v]) => v !== undefined));
    return invoicePdfResponse(invoice, { ...invoicePdfDefaults(this.config, user), ...given });
  }

  /**
   * An invoice of a customer by the provider's customer id alone: the operator's copy of an invoice
   * whose user is gone (a deleted account keeps its customer id for this). The customer is named by
   * that id, since the user's name and address were deleted with the account.
   */
  async downloadForCustomer(
    customerId: string,
    id: string,
    options: InvoicePdfOptions = {},
  ): Promise<Response> {
    const invoice = await this.gateway.findInvoice(customerId, id);
    if (!invoice) throw BillingError.invoiceNotFound(id);
    const given = Object.fromEntries(Object.entries(options).filter(([, v]) => v !== undefined));
    const defaults = { ...sellerPdfDefaults(this.config), customer: { name: `Customer ${customerId}` } };
    return invoicePdfResponse(this.wrap(invoice), { ...defaults, ...given });
  }

  /**
   * Whole minor units that the provider can charge (a multiple of ten fils, of a hundred ISK), or
   * full units with no more decimals than the currency has (none in yen, three in dinars).
   */
  private checkAmount(amount: number): void {
    const unit = this.gateway.capabilities.amountUnit;
    const { digits, step } = currency(this.config.billing.currency);
    const scale = 10 ** digits;
    const ok =
      Number.isFinite(amount) &&
      amount > 0 &&
      (unit === 'minor'
        ? Number.isInteger(amount) && amount % step === 0
        : Math.abs(Math.round(amount * scale) - amount * scale) < 1e-9);
    if (!ok)
      throw BillingError.invalidAmount(
        amount,
        unit === 'minor' ? 'smallest-currency-unit' : 'full-currency-unit',
        unit === 'minor' && step > 1
          ? `${this.config.billing.currency.toUpperCase()} amounts are charged in multiples of ${step}`
          : undefined,
      );
  }
}

/** An invoice replayed from `billing_requests`: its dates come back as strings. */
function reviveInvoice(data: GatewayInvoice): GatewayInvoice {
  const date = (d: Date | string | null) => (d === null ? null : new Date(d));
  return {
    ...data,
    date: new Date(data.date),
    lines: data.lines.map((l) => ({ ...l, periodStart: date(l.periodStart), periodEnd: date(l.periodEnd) })),
  };
}
