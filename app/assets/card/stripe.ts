import { type CardTokenizer, loadScript } from './tokenizer.js';

interface StripeJs {
  elements(): { create(type: 'card', options?: object): StripeCard };
  createToken(card: StripeCard): Promise<{ token?: { id: string }; error?: { message?: string } }>;
}
interface StripeCard {
  mount(el: HTMLElement): void;
}

/**
 * Stripe.js Elements (https://docs.stripe.com/js/elements_object/create_element?type=card): the
 * card field is an iframe served by Stripe, and `createToken` returns a `tok_…` for it. Loaded only
 * when a publishable key is configured.
 */
export async function stripeElements(box: HTMLElement, key: string): Promise<CardTokenizer> {
  await loadScript('https://js.stripe.com/v3/');
  const Stripe = (window as unknown as { Stripe: (key: string) => StripeJs }).Stripe;
  const stripe = Stripe(key);
  const card = stripe.elements().create('card', { hidePostalCode: true });
  card.mount(box.querySelector<HTMLElement>('[data-card-element]') ?? box);
  return {
    async tokenizeCard() {
      const { token, error } = await stripe.createToken(card);
      if (!token) throw new Error(error?.message ?? 'The card could not be read.');
      return token.id;
    },
  };
}
