import { initCardForm, initConfirm } from './billing.js';
import { initClients } from './clients.js';
import { initStripeConfirm } from './payment.js';
import { initPersonalTokens } from './tokens.js';
import { initTryApi } from './try-api.js';

/**
 * The dashboard's one script (built by esbuild, see app/web/scripts.ts). Each widget starts when
 * its markup is on the page; pages work as server-rendered HTML otherwise.
 */
const widgets: Array<[string, (el: HTMLElement) => void]> = [
  ['[data-clients]', initClients],
  ['[data-personal-tokens]', initPersonalTokens],
  ['[data-try-api]', initTryApi],
  ['form[data-card-form]', (el) => initCardForm(el as HTMLFormElement)],
  ['form[data-confirm]', (el) => initConfirm(el as HTMLFormElement)],
  ['button[data-confirm-payment]', initStripeConfirm],
];

for (const [selector, init] of widgets) {
  for (const el of document.querySelectorAll<HTMLElement>(selector)) init(el);
}
