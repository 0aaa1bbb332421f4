import { randomUUID } from 'node:crypto';
import type { Context } from 'hono';
import { ConfigKey, csrfToken, type Logger, LoggerKey, type TollgateConfig } from 'tollgate';
import {
  BillingError,
  formatMoney,
  IncompletePayment,
  type PaymentGateway,
  PaymentGatewayKey,
  Payments,
} from 'tollgate/billing';
import { renderPage } from 'tollgate/views';
import type { AppUser } from '../../user.js';
import { invoiceRow, planPrice, renewalLine, SUBSCRIPTION, subscriptionView } from '../billing-view.js';
import { cardEntryConfig, usesStripeJs } from '../card-entry.js';
import { BillingPage, type BillingPageProps } from '../pages/billing-page.js';
import { scriptUrl } from '../scripts.js';

const BACK = '/dashboard/billing';

/**
 * `/dashboard/billing` and its form posts. Billing has no HTTP API (its operations are on the user
 * model), so each action is a plain form post that calls the model and redirects back with a
 * flashed message: card declines and other billing errors come back as the provider's message.
 */
export class BillingController {
  static inject = [ConfigKey, PaymentGatewayKey, LoggerKey, Payments] as const;

  constructor(
    private readonly config: TollgateConfig,
    private readonly gateway: PaymentGateway,
    private readonly logger: Logger,
    private readonly payments: Payments,
  ) {}

  async show(c: Context): Promise<Response> {
    const user = c.get('user') as AppUser;
    const sub = await user.subscription(SUBSCRIPTION);
    const view = sub ? subscriptionView(this.config, sub) : undefined;
    let invoices: BillingPageProps['invoices'] = [];
    let providerError: string | undefined;
    try {
      invoices = (await user.invoices()).map(invoiceRow);
      if (sub && view) view.renewal = await renewalLine(sub, view);
    } catch (err) {
      this.logger.error({ err }, 'could not list invoices or read the renewal date');
      providerError =
        'The payment provider could not be reached: invoices and the renewal date are not shown.';
    }
    return renderPage(
      c,
      { title: 'Billing' },
      <BillingPage
        script={await scriptUrl()}
        csrfToken={csrfToken(c)}
        requestKey={randomUUID()}
        plans={this.config.billing.plans}
        selectedPlan={c.get('session')?.get<string>('billing.plan')}
        price={(plan) => planPrice(this.config, plan)}
        subscription={view}
        pendingPayment={await this.pendingPayment(user)}
        card={paymentMethod(user)}
        invoices={invoices}
        cardEntry={cardEntryConfig(
          this.config,
          await this.braintreeAuthorization(),
          usesStripeJs(this.config) ? (await user.createSetupIntent()).clientSecret : '',
        )}
        providerError={providerError}
        hostedCheckout={this.gateway.capabilities.supportsHostedCheckout}
        portal={this.gateway.capabilities.supportsHostedCheckout && user.hasBillingId()}
      />,
    );
  }

  subscribe(c: Context): Promise<Response> {
    return this.act(c, async (user, form) => {
      const plan = this.plan(form.plan);
      if (!plan) return ['error', 'Choose one of the plans.'];
      // No token: the card on file (saved through the card page or an earlier subscription).
      // Without the script, the sandbox's chosen test card (itself a token) is what the form carries.
      const token = form.token || form.test_card || null;
      if (!token && !user.hasCardOnFile()) return ['error', 'Enter a card.'];
      // The form's request key makes a double post (or a resend) replay the first one's subscription;
      // a live one from another form answers `subscription_exists`.
      const requestKey = form.request_key || undefined;
      const current = await user.subscription(SUBSCRIPTION);
      if (current?.valid() && (current.onGracePeriod() || !requestKey))
        return ['error', 'You already have a subscription: swap its plan instead.'];
      await user.newSubscription(SUBSCRIPTION, plan.id).create(token, { requestKey });
      return [
        'status',
        plan.trialDays
          ? `Subscribed to ${plan.name}. Your ${plan.trialDays}-day trial has started.`
          : `Subscribed to ${plan.name}.`,
      ];
    });
  }

  /**
   * "Subscribe with Checkout": on to the provider's hosted page (offline, the sandbox's stand-in).
   * The form's request key makes a double post open the same session, not a second payable one.
   */
  checkout(c: Context): Promise<Response> {
    return this.act(c, async (user, form) => {
      const plan = this.plan(form.plan);
      if (!plan) return ['error', 'Choose one of the plans.'];
      const origin = new URL(c.req.url).origin;
      const session = await user.newSubscription(SUBSCRIPTION, plan.id).checkout({
        successUrl: `${origin}/dashboard/billing/checkout/success?session_id={CHECKOUT_SESSION_ID}`,
        cancelUrl: `${origin}${BACK}`,
        requestKey: form.request_key || undefined,
      });
      return ['redirect', session.url];
    });
  }

  /**
   * Back from Checkout: the subscription is stored now if the webhook has not stored it yet (the
   * same idempotent step as the webhook's), so the page shows it at once.
   */
  checkoutSuccess(c: Context): Promise<Response> {
    return this.act(c, async (user) => {
      const done = await user.completeCheckout(c.req.query('session_id') ?? '');
      if (done.status !== 'complete') return ['error', 'The payment is not finished yet.'];
      const plan =
        done.subscription && this.config.billing.plans.find((p) => p.id === done.subscription?.plan);
      return ['status', plan ? `Subscribed to ${plan.name}.` : 'Payment received.'];
    });
  }

  /** "Manage billing": on to the provider's customer portal, which links back to this page. */
  portal(c: Context): Promise<Response> {
    return this.act(c, async (user) => [
      'redirect',
      await user.billingPortalUrl(`${new URL(c.req.url).origin}${BACK}`),
    ]);
  }

  swap(c: Context): Promise<Response> {
    return this.act(c, async (user, form) => {
      const plan = this.plan(form.plan);
      const sub = await user.subscription(SUBSCRIPTION);
      if (!plan || !sub?.valid()) return ['error', 'Choose one of the plans.'];
      await sub.swap(plan.id);
      return ['status', `Your plan is now ${plan.name}.`];
    });
  }

  cancel(c: Context): Promise<Response> {
    return this.act(c, async (user) => {
      const sub = await user.subscription(SUBSCRIPTION);
      if (!sub?.valid() || sub.onGracePeriod())
        return ['error', 'There is no active subscription to cancel.'];
      await sub.cancel();
      return ['status', 'Your subscription is cancelled. It stays active until the end of the paid period.'];
    });
  }

  resume(c: Context): Promise<Response> {
    return this.act(c, async (user) => {
      const sub = await user.subscription(SUBSCRIPTION);
      if (!sub) return ['error', 'There is no subscription to resume.'];
      await sub.resume();
      return ['status', 'Your subscription is resumed.'];
    });
  }

  updateCard(c: Context): Promise<Response> {
    return this.act(c, async (user, form) => {
      const token = form.token || form.test_card;
      if (!token) return ['error', 'Enter a card.'];
      await user.updateCard(token);
      return ['status', 'Your payment method is updated.'];
    });
  }

  /**
   * Offline, "enter a card number" goes through the sandbox's card page (Stripe.js's stand-in): a
   * SetupIntent for the user, back to `setupCardReturn` with its id.
   */
  async setupCard(c: Context): Promise<Response> {
    const intent = await (c.get('user') as AppUser).createSetupIntent();
    if (!intent.cardPageUrl) return c.redirect(BACK, 303);
    const back = `${new URL(c.req.url).origin}/dashboard/billing/card/setup/return`;
    return c.redirect(`${intent.cardPageUrl}&return_url=${encodeURIComponent(back)}`, 303);
  }

  /** Back from the card page: the saved PaymentMethod becomes the default card. */
  setupCardReturn(c: Context): Promise<Response> {
    return this.act(c, async (user) => {
      const pm = await this.payments.setupIntentPaymentMethod(user, c.req.query('setup_intent') ?? '');
      if (!pm) return ['error', 'The card was not saved.'];
      await user.updateCard(pm);
      return ['status', 'Your payment method is updated.'];
    });
  }

  /** The payment a renewal or a new subscription waits on (the page's banner), if any. */
  private async pendingPayment(user: AppUser): Promise<BillingPageProps['pendingPayment']> {
    try {
      const payment = await user.incompletePayment(SUBSCRIPTION);
      if (!payment) return undefined;
      const { currencySymbol } = this.config.billing;
      return { id: payment.id, amount: formatMoney(payment.amount, payment.currency, currencySymbol) };
    } catch (err) {
      this.logger.error({ err }, 'could not read the pending payment');
      return undefined;
    }
  }

  private plan(id: string | undefined) {
    return this.config.billing.plans.find((p) => p.id === id);
  }

  /** Runs a billing action and redirects back with its message (or the billing error's), or on to a hosted page. */
  private async act(
    c: Context,
    action: (
      user: AppUser,
      form: Record<string, string | undefined>,
    ) => Promise<['status' | 'error' | 'redirect', string]>,
  ): Promise<Response> {
    const body = c.req.method === 'GET' ? {} : await c.req.parseBody();
    const form = Object.fromEntries(
      Object.entries(body).map(([k, v]) => [k, typeof v === 'string' ? v.trim() : undefined]),
    );
    const session = c.get('session');
    // A declined card brings the customer back to the same plan choice.
    if (form.plan) session?.flash('billing.plan', form.plan);
    try {
      const [kind, message] = await action(c.get('user') as AppUser, form);
      // Off to a provider's hosted page (Checkout, the customer portal).
      if (kind === 'redirect') return c.redirect(message, 303);
      session?.flash(kind, message);
    } catch (err) {
      // 3-D Secure: on to the confirmation page, which says what it is for.
      if (err instanceof IncompletePayment)
        return c.redirect(`/billing/payment/${encodeURIComponent(err.payment.id)}`, 303);
      if (!(err instanceof BillingError) || err.status >= 500)
        this.logger.error({ err }, 'billing action failed');
      session?.flash(
        'error',
        err instanceof BillingError && err.status < 500
          ? err.message
          : 'The payment provider could not complete this. Try again.',
      );
    }
    return c.redirect(BACK, 303);
  }

  /** Braintree's Drop-in needs a client token from the gateway; an edition that offers one exposes `clientToken()`. */
  private async braintreeAuthorization(): Promise<string> {
    const withToken = this.gateway as PaymentGateway & { clientToken?: () => Promise<string> };
    if (this.config.billing.edition !== 'braintree' || typeof withToken.clientToken !== 'function') return '';
    try {
      return await withToken.clientToken();
    } catch (err) {
      this.logger.error({ err }, 'could not get a Braintree client token');
      return '';
    }
  }
}

function paymentMethod(user: AppUser): BillingPageProps['card'] {
  if (user.card_brand && user.card_last_four)
    return { brand: user.card_brand, lastFour: user.card_last_four };
  if (user.paypal_email) return { paypal: user.paypal_email };
  return undefined;
}
