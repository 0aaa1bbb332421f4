import type { Context, Hono } from 'hono';
import type Stripe from 'stripe';
import type { SandboxContext } from '../domain/context.js';
import { settleInvoiceIntent } from '../domain/invoice-lifecycle.js';
import { authenticatePaymentIntent } from '../domain/payment-intents.js';
import { createPaymentMethod } from '../domain/payment-methods.js';
import { authenticateSetupIntent, confirmSetupIntent } from '../domain/setup-intents.js';
import { majorAmount } from '../objects/currency.js';
import { TEST_PAYMENT_METHODS, testCardByNumber } from '../objects/test-cards.js';
import type { SandboxEnv } from './respond.js';

const AUTH_LABELS = {
  never: '',
  always: ' — 3-D Secure, always',
  unless_set_up: ' — 3-D Secure, off-session only until set up',
  on_session: ' — 3-D Secure on-session only',
} as const;

export const esc = (s: string) => s.replace(/[&<>"']/g, (ch) => `&#${ch.charCodeAt(0)};`);

export const page = (title: string, body: string) =>
  `<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><title>${esc(title)}</title>
<meta name="viewport" content="width=device-width, initial-scale=1">
<style>body{font:16px system-ui,sans-serif;max-width:32rem;margin:3rem auto;padding:0 1rem;color:#1a1f36}
.box{border:1px solid #e3e8ee;border-radius:8px;padding:1.5rem}.muted{color:#697386;font-size:.9em}
button{font:inherit;padding:.6rem 1rem;border-radius:6px;border:1px solid #635bff;background:#635bff;color:#fff;margin:.25rem .5rem .25rem 0;cursor:pointer}
button.fail{background:#fff;color:#c0123c;border-color:#c0123c}input{font:inherit;padding:.5rem;width:100%;box-sizing:border-box;margin:.25rem 0 1rem}
.error{color:#c0123c}code{font-size:.85em}select{font:inherit;padding:.5rem;width:100%;box-sizing:border-box;margin:.25rem 0 .5rem}label{display:block}</style></head><body><div class="box">${body}</div>
<p class="muted">Tollgate Stripe sandbox — no real card network is involved.</p></body></html>`;

/** The sandbox's test card numbers and what each does, under a card number field. */
export const testCardList = () =>
  `<p class="muted">Test numbers:</p><ul class="muted">${Object.values(TEST_PAYMENT_METHODS)
    .map(
      (card) =>
        `<li><code>${card.number}</code> ${esc(card.brand)}${AUTH_LABELS[card.authentication]}${card.outcome === 'succeed' ? '' : ` — ${card.outcome.replace('_', ' ')}`}</li>`,
    )
    .join('')}</ul>`;

/** Where the customer goes next: the intent's `return_url` with Stripe's redirect parameters. */
function returnTo(returnUrl: string, intent: Stripe.PaymentIntent | Stripe.SetupIntent): string {
  const url = new URL(returnUrl);
  const kind = intent.object === 'payment_intent' ? 'payment_intent' : 'setup_intent';
  url.searchParams.set(kind, intent.id);
  url.searchParams.set(`${kind}_client_secret`, intent.client_secret ?? '');
  url.searchParams.set('redirect_status', intent.status === 'succeeded' ? 'succeeded' : 'failed');
  return url.toString();
}

/**
 * The pages a browser sees where Stripe would show its own: a card form that confirms a
 * SetupIntent (the offline stand-in for Stripe.js Elements), and the 3-D Secure challenge with
 * "Complete authentication" and "Fail authentication", like Stripe's test authentication page.
 * Both are reached with the intent's client secret, as Stripe.js is.
 */
export function registerHostedPages(app: Hono<SandboxEnv>, ctx: SandboxContext): void {
  const { store, events } = ctx;

  const intentFor = (c: Context, secret: string | undefined) => {
    const id = c.req.param('id') ?? '';
    const intent = id.startsWith('seti_') ? store.setupIntents.get(id) : store.paymentIntents.get(id);
    return intent && secret && intent.client_secret === secret ? intent : undefined;
  };
  const notFound = (c: Context) =>
    c.html(page('Not found', '<h1>Unknown intent</h1><p>No intent with that id and client secret.</p>'), 404);

  app.get('/_sandbox/3ds/:id', (c) => {
    const intent = intentFor(c, c.req.query('client_secret'));
    if (!intent) return notFound(c);
    const amount =
      intent.object === 'payment_intent'
        ? `${majorAmount(intent.amount, intent.currency)} ${intent.currency.toUpperCase()}`
        : 'saving your card for later payments';
    const done = intent.status !== 'requires_action';
    return c.html(
      page(
        '3D Secure 2 test page',
        `<h1>3D Secure 2 test page</h1><p>Authenticate the payment: <strong>${esc(amount)}</strong>.</p>
${done ? `<p>This authentication is already finished (${esc(intent.status)}).</p>` : ''}
<form method="post"><input type="hidden" name="client_secret" value="${esc(intent.client_secret ?? '')}">
<input type="hidden" name="return_url" value="${esc(c.req.query('return_url') ?? '')}">
<button name="outcome" value="complete" ${done ? 'disabled' : ''}>Complete authentication</button>
<button class="fail" name="outcome" value="fail" ${done ? 'disabled' : ''}>Fail authentication</button></form>`,
      ),
    );
  });

  app.post('/_sandbox/3ds/:id', async (c) => {
    const form = await c.req.parseBody();
    const intent = intentFor(c, String(form.client_secret ?? ''));
    if (!intent) return notFound(c);
    const passed = form.outcome === 'complete';
    if (intent.object === 'payment_intent') {
      authenticatePaymentIntent(ctx, intent, passed);
      settleInvoiceIntent(ctx, intent);
    } else authenticateSetupIntent(ctx, intent, passed);
    await events.flush();
    // Stripe.js sends the customer back where the page that opened the challenge asked.
    const back = String(form.return_url ?? '') || store.returnUrls.get(intent.id);
    if (back) return c.redirect(returnTo(back, intent), 303);
    return c.html(page('Authentication finished', `<h1>Done</h1><p>Status: ${esc(intent.status)}</p>`));
  });

  const cardPage = (si: Stripe.SetupIntent, returnUrl: string, error?: string) =>
    page(
      'Add a card',
      `<h1>Add a card</h1>${error ? `<p class="error" role="alert">${esc(error)}</p>` : ''}
<form method="post"><input type="hidden" name="client_secret" value="${esc(si.client_secret ?? '')}">
<input type="hidden" name="return_url" value="${esc(returnUrl)}">
<label for="number">Card number</label><input id="number" name="number" inputmode="numeric" autocomplete="off" value="4242 4242 4242 4242">
<button type="submit">Save card</button></form>
${testCardList()}`,
    );

  app.get('/_sandbox/setup/:id', (c) => {
    const si = intentFor(c, c.req.query('client_secret'));
    if (si?.object !== 'setup_intent') return notFound(c);
    return c.html(cardPage(si, c.req.query('return_url') ?? ''));
  });

  app.post('/_sandbox/setup/:id', async (c) => {
    const form = await c.req.parseBody();
    const si = intentFor(c, String(form.client_secret ?? ''));
    if (si?.object !== 'setup_intent') return notFound(c);
    const returnUrl = String(form.return_url ?? '');
    const spec = testCardByNumber(String(form.number ?? ''));
    if (!spec)
      return c.html(
        cardPage(si, returnUrl, 'Your card number is incorrect: use one of the test numbers.'),
        422,
      );
    if (si.status === 'requires_payment_method' || si.status === 'requires_confirmation') {
      confirmSetupIntent(ctx, si, createPaymentMethod(ctx, spec), returnUrl || null);
    }
    await events.flush();
    if (si.status === 'requires_action' && si.next_action?.redirect_to_url?.url)
      return c.redirect(si.next_action.redirect_to_url.url, 303);
    if (si.status !== 'succeeded')
      return c.html(
        cardPage(si, returnUrl, si.last_setup_error?.message ?? 'The card could not be saved.'),
        402,
      );
    return returnUrl
      ? c.redirect(returnTo(returnUrl, si), 303)
      : c.html(page('Saved', '<h1>Card saved</h1>'));
  });
}
