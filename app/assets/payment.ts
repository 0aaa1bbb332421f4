import { loadScript } from './card/tokenizer.js';
import { h } from './dom.js';

interface StripeJs {
  handleNextAction(options: {
    clientSecret: string;
  }): Promise<{ paymentIntent?: { id: string; status: string }; error?: { message?: string } }>;
}

/**
 * The confirmation page's button with real Stripe keys: Stripe.js runs the bank's 3-D Secure step
 * (https://docs.stripe.com/js/payment_intents/handle_next_action), then the page reloads to show
 * the outcome the server reads back from Stripe.
 */
export function initStripeConfirm(button: HTMLElement): void {
  const key = button.dataset.stripeKey;
  const clientSecret = button.dataset.clientSecret;
  if (!key || !clientSecret) return;
  const slot = document.querySelector<HTMLElement>('[data-payment-error]');
  button.addEventListener('click', async () => {
    button.setAttribute('disabled', '');
    try {
      await loadScript('https://js.stripe.com/v3/');
      const stripe = (window as unknown as { Stripe: (key: string) => StripeJs }).Stripe(key);
      const { paymentIntent, error } = await stripe.handleNextAction({ clientSecret });
      if (error) throw new Error(error.message ?? 'The payment could not be confirmed.');
      location.search = `?payment_intent=${encodeURIComponent(paymentIntent?.id ?? '')}`;
    } catch (err) {
      slot?.replaceChildren(h('p', { class: 'error', role: 'alert' }, (err as Error).message));
      button.removeAttribute('disabled');
    }
  });
}
