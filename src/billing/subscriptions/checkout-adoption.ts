import type { Kysely } from 'kysely';
import type { Database } from '../../database/types.js';
import { type BillableModel, type BillableOwner, refOf } from '../billable-user.js';
import { Customers } from '../customers/customers.js';
import {
  type GatewayCheckoutSession,
  type GatewaySubscription,
  type PaymentGateway,
  PaymentGatewayKey,
} from '../gateway/payment-gateway.js';
import { providerTime } from './provider-sync.js';
import { isoOrNull } from './record.js';
import type { Subscription } from './subscription.js';
import { SubscriptionRepository } from './subscription-repository.js';
import { Subscriptions } from './subscriptions.js';

/** The name a subscription gets when its provider object carries none (Cashier's default). */
const DEFAULT_NAME = 'default';

/** A completed Checkout Session, its subscription, and the user it was started for. */
export interface CheckoutAdoption {
  session: GatewayCheckoutSession;
  subscription: GatewaySubscription;
  user: BillableOwner;
}

/**
 * The subscription a hosted Checkout page made, stored as the user's: by the
 * `checkout.session.completed` webhook or the customer's return to the success URL, whichever
 * comes first, once.
 */
export class CheckoutAdoptions {
  static inject = [PaymentGatewayKey, SubscriptionRepository, Customers, Subscriptions] as const;

  constructor(
    private readonly gateway: PaymentGateway,
    private readonly repository: SubscriptionRepository,
    private readonly customers: Customers,
    private readonly subscriptions: Subscriptions,
  ) {}

  /**
   * A completed Checkout Session in subscription mode, fetched as it is now, with the user it was
   * started for (`client_reference_id`, and that user's customer paid). Null for anything else: a
   * payment or setup session, one still open, or one that is not this application's user's.
   * Read outside any transaction; `adoptCheckout` then stores it inside one.
   */
  async checkoutToAdopt(sessionId: string): Promise<CheckoutAdoption | null> {
    if (!this.gateway.capabilities.supportsHostedCheckout || !this.gateway.findCheckoutSession) return null;
    const session = await this.gateway.findCheckoutSession(sessionId);
    if (!session?.subscription || session.mode !== 'subscription' || session.status !== 'complete')
      return null;
    const user = await this.customers.ownerFor(session.clientReferenceId, session.customerId);
    return user ? { session, subscription: session.subscription, user } : null;
  }

  /**
   * Stores the subscription a Checkout Session made, once, whoever comes first — the
   * `checkout.session.completed` webhook (in its claim's transaction, `db`) or the customer's
   * return to the success URL: a row with its provider id is returned as it is; otherwise one is
   * inserted under the name the session was started with, unless a live subscription of that name
   * exists (the unique index decides, so concurrent callers make one row). Undefined when another
   * live subscription holds the name: the provider's stays unlinked, for `billing:reconcile`.
   */
  async adoptCheckout(db: Kysely<Database>, adoption: CheckoutAdoption): Promise<Subscription | undefined> {
    const repository = this.repository.using(db);
    const remote = adoption.subscription;
    const owner = adoption.user as BillableModel;
    const byId = async () => (await repository.findByProviderId(remote.id))[0];
    const known = await byId();
    if (known) return this.subscriptions.handle(known, owner);
    const inserted = await repository.insertUnlessLive({
      billableType: refOf(owner).type,
      billableId: owner.id,
      name: remote.name ?? DEFAULT_NAME,
      providerId: remote.id,
      plan: remote.plan,
      quantity: this.gateway.capabilities.supportsQuantities ? remote.quantity : null,
      trialEndsAt: isoOrNull(remote.trialEndsAt),
      status: remote.status,
      ...providerTime(remote),
    });
    const record = inserted ?? (await byId());
    return record && this.subscriptions.handle(record, owner);
  }

  /** After `adoptCheckout`: the card paid with becomes the card on file if the user has none. */
  keepCheckoutCard(adoption: CheckoutAdoption): Promise<void> {
    const { session, user } = adoption;
    return this.customers.adoptCard(user, session.paymentMethodId, `tollgate-checkout-${session.id}`);
  }
}
