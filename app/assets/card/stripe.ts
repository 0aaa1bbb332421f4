import { type CardTokenizer, loadScript } from './tokenizer.js';

interface StripeJs {
  elements(): { create(type: 'card', options?: object): StripeCard };
  createToken(card: StripeCard): Promise<{ token?: { id: string }; error?: { message?: string } }>;
  confirmCardSetup(
    clientSecret: string,
    data: { payment_method: { card: StripeCard } },
  ): Promise<{ setupIntent?: { payment_method: string }; error?: { message?: string } }>;
}
interface StripeCard {
  mount(el: HTMLElement): void;
}

/**
 * Stripe.js Elements (https://docs.stripe.com/js/elements_object/create_element?type=card): the
 * card field is an iframe served by Stripe. With the page's SetupIntent, `confirmCardSetup` saves
 * the card (3-D Secure on setup included) and gives its PaymentMethod `pm_…`; without one,
 * `createToken` a legacy `tok_…`. Loaded only when a publishable key is configured.
 */
export async function stripeElements(
  box: HTMLElement,
  key: string,
  setupSecret = '',
): Promise<CardTokenizer> {
  await loadScript('https://js.stripe.com/v3/');
  const Stripe = (window as unknown as { Stripe: (key: string) => StripeJs }).Stripe;
  const stripe = Stripe(key);
  const card = stripe.elements().create('card', { hidePostalCode: true });
  card.mount(box.querySelector<HTMLElement>('[data-card-element]') ?? box);
  return {
    async tokenizeCard() {
      if (setupSecret) {
        const { setupIntent, error } = await stripe.confirmCardSetup(setupSecret, {
          payment_method: { card },
        });
        if (!setupIntent) throw new Error(error?.message ?? 'The card could not be saved.');
        return setupIntent.payment_method;
      }
      const { token, error } = await stripe.createToken(card);
      if (!token) throw new Error(error?.message ?? 'The card could not be read.');
      return token.id;
    },
  };
}
