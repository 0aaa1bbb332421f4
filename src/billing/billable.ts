import type { BillableModel, BillableOwner } from './billable-user.js';
import {
  type CheckoutOptions,
  type CheckoutPrices,
  type CheckoutSession,
  Checkouts,
  type CompletedCheckout,
} from './checkout/checkouts.js';
import { Customers } from './customers/customers.js';
import type { ChargeResponse, GatewayPayment, GatewaySetupIntent } from './gateway/payment-gateway.js';
import type { Invoice } from './invoices/invoice.js';
import type { InvoicePdfOptions } from './invoices/invoice-pdf.js';
import { Invoices } from './invoices/invoices.js';
import { Payments } from './payments/payments.js';
import * as status from './subscriptions/status.js';
import type { Subscription } from './subscriptions/subscription.js';
import { SubscriptionBuilder } from './subscriptions/subscription-builder.js';
import { Subscriptions } from './subscriptions/subscriptions.js';

type BillableClass = new (...args: any[]) => BillableOwner;

const DEFAULT = 'default';

/**
 * The spec's billing operations on the application's user model, as a mixin — or on any model
 * that has the billing columns, a name, an e-mail and the container (an organization: see
 * docs/organizations.md). Each method is a thin face over the billing services, reached through
 * the container the model holds.
 *
 * @example
 * class AppUser extends Billable(User) {
 *   override taxPercentage() { return 20; }
 * }
 * app.container.instance(UserModelKey, AppUser);
 * await user.newSubscription('main', 'pro-monthly').create('tok_visa');
 */
export function Billable<TBase extends BillableClass>(Base: TBase) {
  class BillableMixin extends Base implements BillableModel {
    /** @internal The billing services, from the container the user holds (not part of the typed API). */
    get billing() {
      const c = this.container;
      return {
        subscriptions: c.make(Subscriptions),
        customers: c.make(Customers),
        invoices: c.make(Invoices),
        payments: c.make(Payments),
        checkouts: c.make(Checkouts),
      };
    }

    /** 0–100, at most two decimals, on subscription charges only. Override per model. */
    taxPercentage(): number {
      return 0;
    }

    /** Starts a builder: `.trialDays(n)`, `.skipTrial()`, `.quantity(n)`, `.withCoupon(code)`, then `.create(token)`. */
    newSubscription(name: string, plan: string): SubscriptionBuilder {
      const { subscriptions, checkouts } = this.billing;
      return new SubscriptionBuilder(this, subscriptions, name, plan, checkouts);
    }

    /** The newest subscription with that name. */
    subscription(name = DEFAULT): Promise<Subscription | undefined> {
      return this.billing.subscriptions.find(this, name);
    }

    subscriptions(): Promise<Subscription[]> {
      return this.billing.subscriptions.all(this);
    }

    /** Active, in trial, or in the grace period — and on `plan` when given. */
    async subscribed(name = DEFAULT, plan?: string): Promise<boolean> {
      const sub = await this.subscription(name);
      if (!sub?.valid()) return false;
      return plan === undefined || sub.onPlan(plan);
    }

    /** Without arguments, the generic trial counts too; with a name, that subscription's trial. */
    async onTrial(name?: string, plan?: string): Promise<boolean> {
      if (name === undefined && this.onGenericTrial()) return true;
      const sub = await this.subscription(name ?? DEFAULT);
      if (!sub?.onTrial()) return false;
      return plan === undefined || sub.onPlan(plan);
    }

    /** A trial on the user record (`trial_ends_at`), with no subscription attached. */
    onGenericTrial(): boolean {
      return status.onGenericTrial(this, this.container.make(Subscriptions).clock.now());
    }

    /** Subscribed (validly) to `plans` — one id or any of several — under `name`. */
    async subscribedToPlan(plans: string | string[], name = DEFAULT): Promise<boolean> {
      const sub = await this.subscription(name);
      if (!sub?.valid()) return false;
      return [plans].flat().some((plan) => sub.onPlan(plan));
    }

    /** Whether any valid subscription is on `plan`. */
    async onPlan(plan: string): Promise<boolean> {
      return (await this.subscriptions()).some((sub) => sub.valid() && sub.onPlan(plan));
    }

    /** Whether the user is a customer at the provider. */
    hasBillingId(): boolean {
      return this.billing.customers.idOf(this) !== undefined;
    }

    hasCardOnFile(): boolean {
      return Boolean(this.card_brand) || Boolean(this.paypal_email);
    }

    /** Makes the card (or nonce) the default payment method; creates the customer if needed. */
    async updateCard(token: string): Promise<void> {
      const { customers } = this.billing;
      if (customers.idOf(this)) await customers.updateCard(this, token);
      else await customers.createOrUpdate(this, token);
    }

    /**
     * A SetupIntent to collect a card with (Stripe.js `confirmCardSetup`, or the sandbox's card
     * page offline); the PaymentMethod it saves goes to `create()` or `updateCard()`.
     */
    createSetupIntent(): Promise<GatewaySetupIntent> {
      return this.billing.payments.createSetupIntent(this);
    }

    /** This user's payment by id (`payment_not_found` otherwise): what the confirmation page shows. */
    findPayment(id: string): Promise<GatewayPayment> {
      return this.billing.payments.find(this, id);
    }

    /** The payment subscription `name` waits on for the customer's action (3-D Secure), if any. */
    async incompletePayment(name = DEFAULT): Promise<GatewayPayment | null> {
      const sub = await this.subscription(name);
      return sub ? this.billing.payments.pending(sub) : null;
    }

    /**
     * A one-off payment on the provider's hosted Checkout page for catalog prices (Stripe edition;
     * Braintree throws `unsupported_by_edition`). Redirect the customer to the returned `url`.
     * Subscriptions go through `newSubscription(name, plan).checkout(options)`.
     */
    checkout(prices: CheckoutPrices, options: CheckoutOptions): Promise<CheckoutSession> {
      return this.billing.checkouts.payment(this, prices, options);
    }

    /** A one-off payment of `amount` (minor units) named `name` on the Checkout page. */
    checkoutCharge(
      amount: number,
      name: string,
      options: CheckoutOptions & { quantity?: number },
    ): Promise<CheckoutSession> {
      const { quantity = 1, ...rest } = options;
      return this.billing.checkouts.charge(this, amount, name, quantity, rest);
    }

    /**
     * Back at the success URL with the session id: the session, and for a subscription the local
     * row — stored now if the `checkout.session.completed` webhook has not stored it yet.
     */
    completeCheckout(sessionId: string): Promise<CompletedCheckout> {
      return this.billing.checkouts.complete(this, sessionId);
    }

    /** The provider's customer portal for this user (cancel, switch plan, update card), back to `returnUrl`. */
    billingPortalUrl(returnUrl: string): Promise<string> {
      return this.billing.checkouts.portalUrl(this, returnUrl);
    }

    /** A 303 redirect to the customer portal (Cashier's `redirectToBillingPortal`). */
    async redirectToBillingPortal(returnUrl: string): Promise<Response> {
      return Response.redirect(await this.billingPortalUrl(returnUrl), 303);
    }

    /** One-off charge (edition's amount unit); returns the provider's response; throws `BillingError` if declined. */
    charge(amount: number, options: Record<string, unknown> = {}): Promise<ChargeResponse> {
      return this.billing.invoices.charge(this, amount, options);
    }

    /** One-off charge with an invoice, billed at once. */
    invoiceFor(description: string, amount: number, options: Record<string, unknown> = {}): Promise<Invoice> {
      return this.billing.invoices.invoiceFor(this, description, amount, options);
    }

    /** Paid invoices, newest first. */
    invoices(includePending = false): Promise<Invoice[]> {
      return this.billing.invoices.list(this, includePending);
    }

    /** Also drafts and open (unpaid) invoices. */
    invoicesIncludingPending(): Promise<Invoice[]> {
      return this.invoices(true);
    }

    /** One of this user's invoices, or undefined (another customer's invoice is never returned). */
    findInvoice(id: string): Promise<Invoice | undefined> {
      return this.billing.invoices.find(this, id);
    }

    findInvoiceOrFail(id: string): Promise<Invoice> {
      return this.billing.invoices.findOrFail(this, id);
    }

    /** The next invoice the provider would bill: for subscription `name`, else for the newest valid one. */
    async upcomingInvoice(name?: string): Promise<Invoice | undefined> {
      const sub =
        name === undefined
          ? (await this.subscriptions()).find((s) => s.valid())
          : await this.subscription(name);
      if (name !== undefined && !sub) return undefined;
      return this.billing.invoices.upcoming(this, sub?.providerId);
    }

    /** The invoice as a PDF download response (`GET /user/invoice/{invoice}`); seller from `billing.seller`. */
    downloadInvoice(id: string, options: InvoicePdfOptions = {}): Promise<Response> {
      return this.billing.invoices.download(this, id, options);
    }
  }
  return BillableMixin;
}
