import type { CardTokenizer } from './tokenizer.js';

/**
 * The sandbox's "tokenizer": the customer picks one of the provider's documented test tokens
 * (`tok_visa`, `tok_chargeDeclined`, `fake-valid-nonce` …) from a list the server rendered.
 * There is no card number field at all.
 */
export function sandboxPicker(box: HTMLElement): CardTokenizer {
  return {
    async tokenizeCard() {
      const picked = box.querySelector<HTMLInputElement>('input[name="test_card"]:checked');
      if (!picked) throw new Error('Pick a test card.');
      // Empty: the card on file (the server uses the customer's default).
      return picked.value;
    },
  };
}
