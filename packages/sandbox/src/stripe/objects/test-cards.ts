import { StripeSandboxError } from './errors.js';

/**
 * When a card asks for 3-D Secure (https://docs.stripe.com/testing#regulatory-cards):
 * - `never`: no authentication;
 * - `always`: on every payment and setup, however the card was set up (4000 0027 6000 3184);
 * - `unless_set_up`: on every on-session payment, and off-session unless the card was set up for
 *   off-session use through a SetupIntent first (4000 0025 0000 3155);
 * - `on_session`: already set up for off-session use: on-session payments only (4000 0038 0000 0446).
 */
export type Authentication = 'never' | 'always' | 'unless_set_up' | 'on_session';

/** What a charge does once any authentication is done. */
export type ChargeOutcome = 'succeed' | 'decline' | 'insufficient_funds';

export interface TestCard {
  number: string;
  brand: string;
  /** The PaymentMethod's `card.brand` (lower case, as in the API). */
  pmBrand: string;
  last4: string;
  funding: string;
  country: string;
  authentication: Authentication;
  outcome: ChargeOutcome;
  /** Declined already when attached to a customer (Stripe validates the card on attach). */
  declineOnAttach: boolean;
}

const card = (
  number: string,
  brand: [string, string],
  authentication: Authentication = 'never',
  outcome: ChargeOutcome = 'succeed',
  declineOnAttach = false,
): TestCard => ({
  number,
  brand: brand[0],
  pmBrand: brand[1],
  last4: number.slice(-4),
  funding: 'credit',
  country: 'US',
  authentication,
  outcome,
  declineOnAttach,
});

const VISA: [string, string] = ['Visa', 'visa'];

/** Test PaymentMethods by their `pm_card_…` id, with Stripe's documented numbers and behaviour. */
export const TEST_PAYMENT_METHODS: Record<string, TestCard> = {
  pm_card_visa: card('4242424242424242', VISA),
  pm_card_mastercard: card('5555555555554444', ['MasterCard', 'mastercard']),
  pm_card_amex: card('378282246310005', ['American Express', 'amex']),
  pm_card_visa_chargeDeclined: card('4000000000000002', VISA, 'never', 'decline', true),
  pm_card_chargeCustomerFail: card('4000000000000341', VISA, 'never', 'decline'),
  pm_card_authenticationRequiredOnSetup: card('4000002500003155', VISA, 'unless_set_up'),
  pm_card_authenticationRequired: card('4000002760003184', VISA, 'always'),
  pm_card_authenticationRequiredSetupForOffSession: card('4000003800000446', VISA, 'on_session'),
  pm_card_authenticationRequiredChargeDeclinedInsufficientFunds: card(
    '4000008260003178',
    VISA,
    'always',
    'insufficient_funds',
  ),
  pm_card_threeDSecure2Required: card('4000000000003220', VISA, 'always'),
  pm_card_threeDSecureRequiredChargeDeclined: card('4000008400001629', VISA, 'always', 'decline'),
};

/** A test card by its `pm_card_…` id. */
export function testPaymentMethod(id: string, param: string): TestCard {
  const found = TEST_PAYMENT_METHODS[id];
  if (!found) throw StripeSandboxError.noSuch('PaymentMethod', id, param);
  return found;
}

/** A test card by number (what the sandbox's card page is given); spaces are ignored. */
export function testCardByNumber(number: string): TestCard | undefined {
  const digits = number.replace(/\s+/g, '');
  return Object.values(TEST_PAYMENT_METHODS).find((c) => c.number === digits);
}

/** How a payment is made: the customer is present (`on_session`) or not (renewals, `off_session`). */
export type Presence = 'on_session' | 'off_session';

/** Whether this card asks for 3-D Secure on a payment (`setUp`: confirmed on a SetupIntent before). */
export function needsAuthentication(spec: TestCard, presence: Presence, setUp: boolean): boolean {
  switch (spec.authentication) {
    case 'never':
      return false;
    case 'always':
      return true;
    case 'unless_set_up':
      return presence === 'on_session' || !setUp;
    case 'on_session':
      return presence === 'on_session';
  }
}

/** Whether setting the card up (a SetupIntent) asks for 3-D Secure. */
export function setupNeedsAuthentication(spec: TestCard): boolean {
  return spec.authentication === 'always' || spec.authentication === 'unless_set_up';
}
