import type { FC } from 'hono/jsx';
import type { TollgateConfig } from 'tollgate';

/** Which browser tokenizer the card forms use, decided on the server from the configuration. */
export type CardEntryConfig =
  | { provider: 'sandbox'; cards: Array<{ token: string; label: string }> }
  | { provider: 'stripe'; key: string; setupSecret: string }
  | { provider: 'braintree'; authorization: string };

/** The sandboxes' documented test tokens (docs/sandbox.md): there is no card number to type. */
const TEST_CARDS = {
  stripe: [
    { token: 'tok_visa', label: 'Visa ending 4242 — succeeds' },
    { token: 'tok_mastercard', label: 'Mastercard ending 4444 — succeeds' },
    { token: 'tok_amex', label: 'American Express ending 0005 — succeeds' },
    { token: 'tok_chargeDeclined', label: 'Declined card (card_declined)' },
    { token: 'tok_chargeCustomerFail', label: 'Attaches, then later charges fail' },
    { token: 'pm_card_visa', label: 'Visa ending 4242 as a PaymentMethod — succeeds' },
    { token: 'pm_card_threeDSecure2Required', label: '3-D Secure required (4000 0000 0000 3220)' },
    {
      token: 'pm_card_authenticationRequired',
      label: '3-D Secure on every payment, renewals too (4000 0027 6000 3184)',
    },
  ],
  braintree: [
    { token: 'fake-valid-nonce', label: 'Visa — succeeds' },
    { token: 'fake-valid-mastercard-nonce', label: 'Mastercard — succeeds' },
    { token: 'fake-paypal-billing-agreement-nonce', label: 'PayPal account — succeeds' },
    { token: 'fake-processor-declined-visa-nonce', label: 'Declined card (processor declined)' },
    {
      token: 'fake-valid-three-d-secure-visa-nonce',
      label: '3-D Secure required (Visa 4000 0000 0000 1091)',
    },
  ],
};

/**
 * Real credentials → the provider's own tokenizer (Stripe.js Elements with the publishable key,
 * Braintree Drop-in with a client token); none → the sandbox test-card picker.
 */
export function cardEntryConfig(
  config: TollgateConfig,
  braintreeAuthorization = '',
  stripeSetupSecret = '',
): CardEntryConfig {
  const { edition, stripe, braintree } = config.billing;
  if (edition === 'braintree') {
    if (braintree.merchantId && braintree.privateKey && !braintree.apiBase) {
      return { provider: 'braintree', authorization: braintreeAuthorization };
    }
    return { provider: 'sandbox', cards: TEST_CARDS.braintree };
  }
  if (usesStripeJs(config)) return { provider: 'stripe', key: stripe.key, setupSecret: stripeSetupSecret };
  return { provider: 'sandbox', cards: TEST_CARDS.stripe };
}

/** Real Stripe keys: cards are collected with Stripe.js Elements through a SetupIntent. */
export function usesStripeJs(config: TollgateConfig): boolean {
  const { edition, stripe } = config.billing;
  return edition === 'stripe' && Boolean(stripe.secret && stripe.key && !stripe.apiBase);
}

/**
 * The card box inside a card form. The form's script (app/assets/billing.ts) fills the hidden
 * `token` field from `tokenizeCard()` before the form is sent.
 */
export const CardEntry: FC<{ config: CardEntryConfig; idPrefix: string; onFile?: string | undefined }> = ({
  config,
  idPrefix,
  onFile,
}) => (
  <div class="field">
    <input type="hidden" name="token" value="" />
    {config.provider === 'sandbox' ? (
      <fieldset class="m-0" data-card-entry data-provider="sandbox">
        <legend>Test card</legend>
        <p class="small muted mb-sm">
          Sandbox mode: no real payment provider is configured, so pick one of the sandbox's test cards.
        </p>
        <div class="test-cards">
          {onFile ? (
            <label for={`${idPrefix}-on-file`}>
              <input type="radio" id={`${idPrefix}-on-file`} name="test_card" value="" checked />
              <span>The card on file: {onFile}</span>
            </label>
          ) : null}
          {config.cards.map((card, i) => (
            <label for={`${idPrefix}-${card.token}`}>
              <input
                type="radio"
                id={`${idPrefix}-${card.token}`}
                name="test_card"
                value={card.token}
                checked={!onFile && i === 0}
              />
              <span>
                {card.label} <code class="small muted">{card.token}</code>
              </span>
            </label>
          ))}
        </div>
        {config.cards.some((card) => card.token.startsWith('pm_')) ? (
          <p class="small mt-sm">
            Or <a href="/dashboard/billing/card/setup">type a test card number</a> on the sandbox's card page
            (it saves the card through a SetupIntent, as Stripe.js would).
          </p>
        ) : null}
      </fieldset>
    ) : (
      <div
        data-card-entry
        data-provider={config.provider}
        data-key={config.provider === 'stripe' ? config.key : undefined}
        data-setup-secret={config.provider === 'stripe' ? config.setupSecret : undefined}
        data-authorization={config.provider === 'braintree' ? config.authorization : undefined}
      >
        <p class="small strong mb-xs">Card</p>
        <div class="card-element" data-card-element />
      </div>
    )}
    <div data-card-error />
  </div>
);
