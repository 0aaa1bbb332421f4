import { type CardTokenizer, createTokenizer } from './card/tokenizer.js';
import { h } from './dom.js';

/**
 * Billing forms post to the server as plain forms. Those that take a card (`data-card-form`) first
 * ask the card tokenizer for a token and submit only that, in the hidden `token` field.
 */
export function initCardForm(form: HTMLFormElement): void {
  const box = form.querySelector<HTMLElement>('[data-card-entry]')!;
  const errorSlot = form.querySelector<HTMLElement>('[data-card-error]') ?? box;
  const tokenizer: Promise<CardTokenizer> = createTokenizer(box);
  tokenizer.catch((err: Error) => showError(err.message));

  function showError(message: string) {
    errorSlot.replaceChildren(h('p', { class: 'error', role: 'alert' }, message));
  }

  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    const submit = form.querySelector<HTMLButtonElement>('[type="submit"]');
    if (submit) submit.disabled = true;
    errorSlot.replaceChildren();
    try {
      const token = await (await tokenizer).tokenizeCard();
      (form.elements.namedItem('token') as HTMLInputElement).value = token;
      form.submit();
    } catch (err) {
      showError((err as Error).message);
      if (submit) submit.disabled = false;
    }
  });
}

/** Forms with `data-confirm` ask first (cancelling a subscription). */
export function initConfirm(form: HTMLFormElement): void {
  form.addEventListener('submit', (event) => {
    if (!confirm(form.dataset.confirm ?? 'Are you sure?')) event.preventDefault();
  });
}
