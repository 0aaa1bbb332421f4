import { type CardTokenizer, loadScript } from './tokenizer.js';

interface DropIn {
  requestPaymentMethod(): Promise<{ nonce: string }>;
}
interface BraintreeJs {
  dropin: {
    create(options: { authorization: string; container: HTMLElement; paypal?: object }): Promise<DropIn>;
  };
}

const DROP_IN = 'https://js.braintreegateway.com/web/dropin/1.44.1/js/dropin.min.js';

/**
 * Braintree Drop-in UI (https://developer.paypal.com/braintree/docs/start/drop-in): cards and
 * PayPal, tokenized into a payment method nonce. `authorization` is a client token (or a
 * tokenization key). Loaded only when Braintree credentials are configured.
 */
export async function braintreeDropIn(box: HTMLElement, authorization: string): Promise<CardTokenizer> {
  if (!authorization) throw new Error('Braintree needs a client token to show its card form.');
  await loadScript(DROP_IN);
  const braintree = (window as unknown as { braintree: BraintreeJs }).braintree;
  const container = box.querySelector<HTMLElement>('[data-card-element]') ?? box;
  const dropin = await braintree.dropin.create({ authorization, container, paypal: { flow: 'vault' } });
  return {
    async tokenizeCard() {
      return (await dropin.requestPaymentMethod()).nonce;
    },
  };
}
