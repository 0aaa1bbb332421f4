import { BillingError } from '../../errors.js';
import { incompletePayment, needsAuthentication } from './sca.js';
import type { BtResult } from './types.js';

/** Transaction statuses that mean the processor or gateway refused the money. */
const REFUSED = new Set(['processor_declined', 'gateway_rejected', 'failed', 'settlement_declined']);

/**
 * Braintree re-prices only Pending and Active subscriptions: a new plan or price (91920) or discount
 * and add-on changes (92022) on a Past Due one are refused until its balance is paid.
 */
const PAST_DUE_EDITS = new Set(['91920', '92022']);

/**
 * An unsuccessful result (`success: false`) as a `BillingError`. A declined sale or a failed card
 * verification is `card_declined` carrying Braintree's processor response text and code
 * (https://developer.paypal.com/braintree/docs/reference/general/processor-responses/authorization-responses);
 * validation errors are `provider_error` with the first validation code.
 */
export function resultError(result: BtResult, what: string): BillingError {
  const t = result.transaction;
  // Strong customer authentication: the customer completes it on the confirmation page.
  if (t && needsAuthentication(t)) return incompletePayment(t);
  if (t && REFUSED.has(t.status)) {
    const text = t.processorResponseText || t.gatewayRejectionReason || result.message || t.status;
    return BillingError.cardDeclined(`The payment was declined: ${text}.`, {
      providerCode: t.processorResponseCode || t.status,
      declineCode: t.processorResponseType ?? undefined,
      invoiceId: t.id,
    });
  }
  const v = result.verification;
  if (v?.status && v.status !== 'verified') {
    const text = v.processorResponseText || result.message || v.status;
    return BillingError.cardDeclined(`The card was declined: ${text}.`, {
      providerCode: v.processorResponseCode || v.status,
    });
  }
  const first = result.errors?.deepErrors()[0];
  if (first && PAST_DUE_EDITS.has(first.code))
    return BillingError.subscriptionPastDue('change the plan or price of', { providerCode: first.code });
  return BillingError.provider(`Braintree: ${what} failed: ${result.message ?? 'unknown error'}`, {
    providerCode: first?.code,
  });
}

/** The result's payload, or the error it stands for. */
export function ok<T extends BtResult>(result: T, what: string): T {
  if (!result.success) throw resultError(result, what);
  return result;
}

/** The SDK throws typed `Error`s (`type: 'notFoundError'`, `authenticationError`…) for non-422 answers. */
export function isNotFound(err: unknown): boolean {
  const cause = err instanceof BillingError ? err.cause : err;
  return cause instanceof Error && (cause as { type?: string }).type === 'notFoundError';
}

/** Runs an SDK call, turning its thrown errors into `provider_error`. */
export async function braintreeCall<T>(what: string, fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (err) {
    if (err instanceof BillingError) throw err;
    const type = (err as { type?: string }).type;
    throw BillingError.provider(`Braintree: ${what} failed: ${type ?? (err as Error).message}`, {
      providerCode: type,
      cause: err,
    });
  }
}
