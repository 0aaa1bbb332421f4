import { randomUUID } from 'node:crypto';
import { BillableStores } from '../billable-stores.js';
import { type BillableOwner, refOf } from '../billable-user.js';
import { BillingLock } from '../billing-lock.js';
import { BillingError } from '../errors.js';
import { type GatewayCustomer, type PaymentGateway, PaymentGatewayKey } from '../gateway/payment-gateway.js';

/**
 * A billable owner (a user, an organization) as a customer at the provider: its id column and its
 * default payment method, written through the owner type's `BillableStore`.
 */
export class Customers {
  static inject = [PaymentGatewayKey, BillableStores, BillingLock] as const;

  constructor(
    private readonly gateway: PaymentGateway,
    private readonly stores: BillableStores,
    private readonly lock: BillingLock,
  ) {}

  /** The customer id, or undefined before the first subscription or card. */
  idOf(user: BillableOwner): string | undefined {
    return user[this.gateway.capabilities.columns.customerId] ?? undefined;
  }

  idOrFail(user: BillableOwner): string {
    const id = this.idOf(user);
    if (!id) throw BillingError.customerMissing();
    return id;
  }

  /**
   * The customer id, creating the customer with `token` as its default payment method when there is
   * none yet; an existing customer gets `token` as its new default (Cashier's `getStripeCustomer`).
   * Runs under the user's billing lock and reads the customer id again from the database inside it,
   * so concurrent calls (two requests, two instances) make one customer and reuse it.
   */
  createOrUpdate(
    user: BillableOwner,
    token: string | null,
    details: Record<string, unknown> = {},
    idempotencyKey = `tollgate-customer-${randomUUID()}`,
  ): Promise<string> {
    return this.lock.forOwner(refOf(user), async () => {
      const existing = await this.freshId(user);
      if (existing) {
        if (token) await this.updateCard(user, token, `${idempotencyKey}-card`);
        return existing;
      }
      const customer = await this.gateway.createCustomer({
        token,
        email: user.email,
        name: user.name,
        details,
        idempotencyKey: `${idempotencyKey}-customer`,
      });
      await this.store(user, customer);
      return customer.id;
    });
  }

  /**
   * The owner a Checkout Session's reference names (`7` for user 7, `organization:3`), if it is the
   * provider's customer `customerId` (the owner it was started for and the customer that paid).
   * Anyone else: undefined.
   */
  async ownerFor(reference: string | null, customerId: string | null): Promise<BillableOwner | undefined> {
    const match = /^(?:([a-z][a-z0-9_-]*):)?(\d{1,15})$/.exec(reference ?? '');
    if (!match || !customerId) return undefined;
    const owner = await this.stores.find({ type: match[1] ?? 'user', id: Number(match[2]) });
    return owner && this.idOf(owner) === customerId ? owner : undefined;
  }

  /** What a Checkout Session carries to name its owner (`ownerFor` reads it back). */
  static referenceOf(owner: Pick<BillableOwner, 'id' | 'billableType'>): string {
    const { type, id } = refOf(owner);
    return type === 'user' ? String(id) : `${type}:${id}`;
  }

  /** The owner (of any billable type) whose customer id is `customerId`, if any. */
  async ownerOfCustomer(customerId: string): Promise<BillableOwner | undefined> {
    const ref = await this.stores.ownerOfCustomer(this.gateway.capabilities.columns.customerId, customerId);
    return ref && this.stores.find(ref);
  }

  /** The owner as stored now (the store of its type), or undefined once deleted. */
  fresh(owner: BillableOwner): Promise<BillableOwner | undefined> {
    return this.stores.find(refOf(owner));
  }

  /**
   * The card a Checkout payment used becomes the default payment method when the user has none
   * yet (Checkout sets it on the subscription only), so a later `create()` or renewal finds it.
   */
  async adoptCard(
    user: BillableOwner,
    paymentMethodId: string | null,
    idempotencyKey: string,
  ): Promise<void> {
    if (!paymentMethodId) return;
    // Under the lock, read again: the webhook and the customer's return may both get here.
    await this.lock.forOwner(refOf(user), async () => {
      const fresh = (await this.fresh(user)) ?? user;
      if (fresh.card_brand || fresh.paypal_email) return;
      await this.updateCard(user, paymentMethodId, idempotencyKey);
    });
  }

  /**
   * Makes `token` the default payment method and stores its brand and last four digits, under the
   * user's billing lock (a charge or a subscription change in flight bills the card it started with).
   */
  updateCard(
    user: BillableOwner,
    token: string,
    idempotencyKey = `tollgate-card-${randomUUID()}`,
  ): Promise<void> {
    return this.lock.forOwner(refOf(user), async () => {
      const customer = await this.gateway.updatePaymentMethod(this.idOrFail(user), token, idempotencyKey);
      await this.store(user, customer);
    });
  }

  /**
   * Copies the provider's current default payment method (brand, last four, PayPal e-mail) to the
   * user — fetched, so a late or repeated `customer.updated` or payment-method webhook never
   * stores an older card. Fetched and stored under the user's billing lock: a card change made
   * between the two would otherwise be overwritten by the card fetched before it.
   * Returns false when the user has no customer or the provider has none.
   */
  refreshCard(user: BillableOwner): Promise<boolean> {
    return this.lock.forOwner(refOf(user), async () => {
      const id = this.idOf(user);
      const customer = id ? await this.gateway.findCustomer(id) : null;
      if (!customer) return false;
      await this.store(user, customer);
      return true;
    });
  }

  /** The customer id as the database has it now (another request may have just created it). */
  private async freshId(user: BillableOwner): Promise<string | undefined> {
    const column = this.gateway.capabilities.columns.customerId;
    const id = (await this.fresh(user))?.[column] ?? this.idOf(user);
    if (id && id !== user[column]) user.fill({ [column]: id });
    return id ?? undefined;
  }

  private async store(user: BillableOwner, customer: GatewayCustomer): Promise<void> {
    const { capabilities } = this.gateway;
    await this.stores.of(refOf(user).type).update(user, {
      [capabilities.columns.customerId]: customer.id,
      card_brand: customer.cardBrand,
      card_last_four: customer.cardLastFour,
      ...(capabilities.supportsPaypal ? { paypal_email: customer.paypalEmail } : {}),
    });
  }
}
