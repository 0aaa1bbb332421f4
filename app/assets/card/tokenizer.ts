import { braintreeDropIn } from './braintree.js';
import { sandboxPicker } from './sandbox.js';
import { stripeElements } from './stripe.js';

/**
 * Card entry, whoever runs it: the provider's own browser tokenizer turns what the customer types
 * into a single-use token (Stripe `tok_…`, Braintree nonce), so no card number reaches our server.
 */
export interface CardTokenizer {
  tokenizeCard(): Promise<string>;
}

/**
 * Picks the implementation the server chose for this page (`data-provider` on the card entry box):
 * `sandbox` (test-card picker, no real credentials configured), `stripe` or `braintree`.
 */
export async function createTokenizer(box: HTMLElement): Promise<CardTokenizer> {
  switch (box.dataset.provider) {
    case 'stripe':
      return stripeElements(box, box.dataset.key ?? '', box.dataset.setupSecret ?? '');
    case 'braintree':
      return braintreeDropIn(box, box.dataset.authorization ?? '');
    default:
      return sandboxPicker(box);
  }
}

/** Adds a provider's script once; resolves when it has run. */
export function loadScript(src: string): Promise<void> {
  const existing = document.querySelector<HTMLScriptElement>(`script[src="${src}"]`);
  if (existing?.dataset.loaded) return Promise.resolve();
  return new Promise((resolve, reject) => {
    const script = existing ?? document.createElement('script');
    script.addEventListener('load', () => {
      script.dataset.loaded = '1';
      resolve();
    });
    script.addEventListener('error', () => reject(new Error(`Could not load ${src}.`)));
    if (!existing) {
      script.src = src;
      document.head.append(script);
    }
  });
}
