/**
 * The parts of the SDK's response objects the adapter reads, typed structurally: `@types/braintree`
 * lags the SDK (3.40.0) and types several fields wrongly (amounts as numbers, dates as Date), while
 * the SDK hands back what the gateway's XML says — decimal strings and `YYYY-MM-DD` dates.
 */
export interface BtModification {
  id: string;
  name?: string | null;
  amount: string;
  quantity?: number | null;
  inheritedFromId?: string | null;
  neverExpires?: boolean | null;
  numberOfBillingCycles?: number | null;
  currentBillingCycle?: number | null;
}

export interface BtTransaction {
  id: string;
  type: string;
  status: string;
  amount: string;
  currencyIsoCode?: string | null;
  createdAt: string;
  customer?: { id?: string | null } | null;
  customFields?: Record<string, string> | null;
  planId?: string | null;
  subscriptionId?: string | null;
  subscription?: { billingPeriodStartDate?: string | null; billingPeriodEndDate?: string | null } | null;
  discounts?: BtModification[] | null;
  addOns?: BtModification[] | null;
  processorResponseCode?: string | null;
  processorResponseText?: string | null;
  processorResponseType?: string | null;
  gatewayRejectionReason?: string | null;
  /** The vaulted card charged (its token), when it was one. */
  creditCard?: { token?: string | null } | null;
}

export interface BtSubscription {
  id: string;
  planId: string;
  price: string;
  status: string;
  balance?: string | null;
  paymentMethodToken: string;
  trialPeriod?: boolean | null;
  trialDuration?: number | null;
  firstBillingDate?: string | null;
  nextBillingDate?: string | null;
  billingPeriodStartDate?: string | null;
  billingPeriodEndDate?: string | null;
  paidThroughDate?: string | null;
  currentBillingCycle?: number | null;
  numberOfBillingCycles?: number | null;
  neverExpires?: boolean | null;
  nextBillAmount?: string | null;
  discounts?: BtModification[] | null;
  addOns?: BtModification[] | null;
  transactions?: BtTransaction[] | null;
  updatedAt?: string | null;
}

/** A vaulted card (`cardType`, `last4`) or PayPal account (`email`). */
export interface BtPaymentMethod {
  token: string;
  default?: boolean | null;
  cardType?: string | null;
  last4?: string | null;
  email?: string | null;
  subscriptions?: BtSubscription[] | null;
  /** Set once the customer revoked it (a PayPal billing agreement cancelled): it no longer pays. */
  revokedAt?: Date | string | null;
}

export interface BtCustomer {
  id: string;
  email?: string | null;
  paymentMethods?: BtPaymentMethod[] | null;
}

export interface BtPlan {
  id: string;
  name?: string | null;
  price: string;
  billingFrequency: number;
  currencyIsoCode?: string | null;
}

/** What `gateway.<x>.create/update/sale` resolve to: a success, or `success: false` with the reasons. */
export interface BtResult {
  success: boolean;
  message?: string;
  errors?: { deepErrors(): Array<{ code: string; attribute?: string; message: string }> };
  transaction?: BtTransaction;
  verification?: { status?: string; processorResponseCode?: string; processorResponseText?: string } | null;
  customer?: BtCustomer;
  subscription?: BtSubscription;
  paymentMethod?: BtPaymentMethod;
}

export interface BtNotification {
  kind: string;
  timestamp: string;
  // `| undefined` throughout: the SDK's own types have optional fields that a consumer compiling
  // with `exactOptionalPropertyTypes` must still be able to pass where this type is the parameter.
  subscription?:
    | { id?: string | undefined; transactions?: Array<{ id?: string | undefined }> | null | undefined }
    | null
    | undefined;
  transaction?: { id?: string | undefined } | null | undefined;
  dispute?: { id?: string | undefined } | null | undefined;
  /** `payment_method_revoked_by_customer`. */
  revokedPaymentMethodMetadata?:
    | { token?: string | undefined; customerId?: string | undefined }
    | null
    | undefined;
  /** `payment_method_customer_data_updated`. */
  paymentMethodCustomerDataUpdatedMetadata?:
    | {
        token?: string | undefined;
        paymentMethod?: { customerId?: string | undefined } | undefined;
      }
    | null
    | undefined;
}
