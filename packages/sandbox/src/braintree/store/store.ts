import type { SandboxClock } from '../../shared/clock.js';
import { randomChars } from '../../shared/ids.js';
import type {
  CustomerRecord,
  IssuedNonce,
  PaymentMethodRecord,
  RecordedRequest,
  SandboxDiscount,
  SandboxPlan,
  SubscriptionRecord,
  TransactionRecord,
  WebhookDelivery,
} from './records.js';

const HEX = '0123456789abcdef';

/** Everything the sandbox remembers; plain maps so tests can read them directly. */
export class SandboxStore {
  readonly customers = new Map<string, CustomerRecord>();
  readonly paymentMethods = new Map<string, PaymentMethodRecord>();
  readonly subscriptions = new Map<string, SubscriptionRecord>();
  readonly transactions = new Map<string, TransactionRecord>();
  readonly nonces = new Map<string, IssuedNonce>();
  readonly plans = new Map<string, SandboxPlan>();
  readonly discounts = new Map<string, SandboxDiscount>();
  readonly addOns = new Map<string, SandboxDiscount>();
  readonly requests: RecordedRequest[] = [];
  readonly deliveries: WebhookDelivery[] = [];

  constructor(
    readonly clock: SandboxClock,
    plans: SandboxPlan[],
    discounts: SandboxDiscount[],
    addOns: SandboxDiscount[] = [],
  ) {
    for (const plan of plans) this.plans.set(plan.id, plan);
    for (const discount of discounts) this.discounts.set(discount.id, discount);
    for (const addOn of addOns) this.addOns.set(addOn.id, addOn);
  }

  now(): string {
    return this.clock.now().toISOString();
  }

  /** Braintree ids are short lowercase alphanumerics; the SDK only allows [A-Za-z0-9_-] in paths. */
  newId(taken: Map<string, unknown>, length = 8): string {
    for (;;) {
      const id = randomChars(length, HEX).replace(/^\d/, 'a');
      if (!taken.has(id)) return id;
    }
  }

  paymentMethodsOf(customerId: string): PaymentMethodRecord[] {
    return [...this.paymentMethods.values()].filter((pm) => pm.customerId === customerId);
  }

  subscriptionsOn(token: string): SubscriptionRecord[] {
    return [...this.subscriptions.values()].filter((s) => s.paymentMethodToken === token);
  }

  isDefault(pm: PaymentMethodRecord): boolean {
    return this.customers.get(pm.customerId)?.defaultToken === pm.token;
  }
}
