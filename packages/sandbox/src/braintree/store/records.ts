/** A plan the sandbox offers through `plan.all()`; prices are decimal strings of the full unit, as Braintree sends them. */
export interface SandboxPlan {
  id: string;
  name: string;
  price: string;
  /** Months between charges: 1 (monthly) or 12 (yearly). */
  billingFrequency: number;
  currencyIsoCode?: string;
  description?: string;
  trialPeriod?: boolean;
  trialDuration?: number;
  trialDurationUnit?: 'day' | 'month';
  numberOfBillingCycles?: number | null;
}

/** A discount the sandbox offers through `discount.all()`. */
export interface SandboxDiscount {
  id: string;
  name: string;
  amount: string;
  description?: string;
  numberOfBillingCycles?: number | null;
  neverExpires?: boolean;
}

export type SubscriptionStatus = 'Active' | 'Canceled' | 'Past Due' | 'Pending' | 'Expired';

export interface CustomerRecord {
  id: string;
  firstName: string | null;
  lastName: string | null;
  email: string | null;
  company: string | null;
  phone: string | null;
  defaultToken: string | null;
  createdAt: string;
  updatedAt: string;
}

/** What a nonce stands for: a card or a PayPal account, and whether the processor declines it. */
export interface Instrument {
  kind: 'credit_card' | 'paypal_account';
  cardType?: string;
  bin?: string;
  last4?: string;
  expirationMonth?: string;
  expirationYear?: string;
  email?: string;
  declines: boolean;
  /**
   * The issuer asks for 3-D Secure (strong customer authentication): a payment the customer makes
   * (not a recurring one) without a successful authentication is soft-declined, 2099.
   */
  threeDSecure?: 'challenge';
}

/** The outcome of a 3-D Secure authentication, as a nonce and the transaction paid with it carry it. */
export interface ThreeDSecureInfo {
  status: 'authenticate_successful' | 'authenticate_failed' | 'authenticate_frictionless_successful';
  liabilityShifted: boolean;
  liabilityShiftPossible: boolean;
  enrolled: 'Y' | 'N';
}

/** A single-use nonce the sandbox issued: for a vaulted method (`token`), perhaps 3-D Secure verified. */
export interface IssuedNonce {
  instrument: Instrument;
  token: string | null;
  threeDSecureInfo: ThreeDSecureInfo | null;
}

export interface PaymentMethodRecord extends Instrument {
  token: string;
  customerId: string;
  /** When the customer revoked it (a PayPal billing agreement cancelled at PayPal); it no longer pays. */
  revokedAt?: string | null;
  createdAt: string;
  updatedAt: string;
}

/** A discount or add-on applied to one subscription. Amounts in cents. */
export interface ModificationRecord {
  id: string;
  name: string;
  amount: number;
  /** The amount exactly as the client sent it (number or string), for assertions. */
  sentAmount: unknown;
  inheritedFromId: string;
  neverExpires: boolean;
  numberOfBillingCycles: number | null;
  currentBillingCycle: number;
  quantity: number;
}

export interface SubscriptionRecord {
  id: string;
  planId: string;
  billingFrequency: number;
  price: number;
  currencyIsoCode: string;
  paymentMethodToken: string;
  status: SubscriptionStatus;
  trialPeriod: boolean;
  trialDuration: number | null;
  trialDurationUnit: 'day' | 'month' | null;
  firstBillingDate: string;
  nextBillingDate: string;
  billingPeriodStartDate: string | null;
  billingPeriodEndDate: string | null;
  paidThroughDate: string | null;
  billingDayOfMonth: number;
  /** Cents owed (positive) or credited (negative). */
  balance: number;
  failureCount: number;
  /** The billing date of the unpaid period while Past Due. */
  pastDueSince: string | null;
  nextRetryDate: string | null;
  currentBillingCycle: number;
  neverExpires: boolean;
  numberOfBillingCycles: number | null;
  discounts: ModificationRecord[];
  addOns: ModificationRecord[];
  transactionIds: string[];
  statusHistory: {
    status: SubscriptionStatus;
    timestamp: string;
    price: number;
    balance: number;
    planId: string;
  }[];
  createdAt: string;
  updatedAt: string;
}

export interface TransactionRecord {
  id: string;
  type: 'sale' | 'credit';
  status:
    | 'authorized'
    | 'submitted_for_settlement'
    | 'settled'
    | 'voided'
    | 'processor_declined'
    | 'gateway_rejected';
  /** `three_d_secure`: the authentication failed and the merchant required it (`options.threeDSecure.required`). */
  gatewayRejectionReason?: string | null;
  /** The 3-D Secure authentication the payment was made with, if any. */
  threeDSecureInfo?: ThreeDSecureInfo | null;
  amount: number;
  currencyIsoCode: string;
  customerId: string | null;
  paymentMethodToken: string | null;
  instrument: Instrument;
  subscriptionId: string | null;
  planId: string | null;
  billingPeriodStartDate: string | null;
  billingPeriodEndDate: string | null;
  recurring: boolean;
  orderId: string | null;
  /** Merchant-defined fields (e.g. Cashier's invoice `description`), returned as sent. */
  customFields: Record<string, string>;
  /** The subscription's discounts and add-ons this charge applied (recurring charges), as Braintree lists them. */
  discounts: ModificationRecord[];
  addOns: ModificationRecord[];
  processorResponseCode: string;
  processorResponseText: string;
  processorResponseType: 'approved' | 'soft_declined';
  /** Set when the (sandbox) settlement batch settles it. */
  settledAt: string | null;
  createdAt: string;
  updatedAt: string;
}

/** One received gateway operation with its parameters (camelCased), as the client sent them. */
export interface RecordedRequest {
  at: string;
  method: string;
  path: string;
  operation: string;
  params: Record<string, unknown>;
}

/** One webhook notification the sandbox produced; `status` is null when no URL was configured. */
export interface WebhookDelivery {
  kind: string;
  subjectId: string;
  timestamp: string;
  url: string | null;
  status: number | null;
  error?: string;
  btSignature: string;
  btPayload: string;
}
