import type { Hono } from 'hono';
import type { SandboxContext } from '../domain/context.js';
import { challengeNeeded, verifyCard } from '../domain/three-d-secure.js';

const esc = (s: string) => s.replace(/[&<>"']/g, (ch) => `&#${ch.charCodeAt(0)};`);

const page = (title: string, body: string) =>
  `<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><title>${esc(title)}</title>
<meta name="viewport" content="width=device-width, initial-scale=1">
<style>body{font:16px system-ui,sans-serif;max-width:32rem;margin:3rem auto;padding:0 1rem;color:#222}
.box{border:1px solid #ddd;border-radius:8px;padding:1.5rem}.muted{color:#666;font-size:.9em}
button{font:inherit;padding:.6rem 1rem;border-radius:6px;border:1px solid #0070e0;background:#0070e0;color:#fff;margin:.25rem .5rem .25rem 0;cursor:pointer}
button.fail{background:#fff;color:#b00020;border-color:#b00020}</style></head><body><div class="box">${body}</div>
<p class="muted">Tollgate Braintree sandbox — the Drop-in's 3-D Secure step; no real card network is involved.</p></body></html>`;

/** Back to the page that ran the verification, with the new nonce (what `verifyCard` resolves with). */
function returnTo(returnUrl: string, result: { nonce: string; liabilityShifted: boolean }): string {
  const url = new URL(returnUrl);
  url.searchParams.set('payment_method_nonce', result.nonce);
  url.searchParams.set('liability_shifted', String(result.liabilityShifted));
  return url.toString();
}

/**
 * The stand-in for the Drop-in's `threeDSecure.verifyCard({ nonce, amount })` in a browser:
 * `GET /_sandbox/three_d_secure?nonce=…&amount=…&return_url=…` runs the lookup — a card that asks
 * for a challenge shows the issuer's page ("Complete authentication" / "Fail authentication"),
 * any other passes frictionless at once — and sends the browser back to `return_url` with
 * `payment_method_nonce` (the 3-D Secure enriched nonce) and `liability_shifted`.
 */
export function threeDSecurePage(app: Hono, ctx: SandboxContext): void {
  const unknown = () =>
    new Response(page('Unknown nonce', '<h1>Unknown nonce</h1><p>That nonce is unknown or was used.</p>'), {
      status: 404,
      headers: { 'content-type': 'text/html; charset=utf-8' },
    });

  app.get('/_sandbox/three_d_secure', (c) => {
    const nonce = c.req.query('nonce') ?? '';
    const returnUrl = c.req.query('return_url') ?? '';
    const challenge = challengeNeeded(ctx, nonce);
    if (challenge === null) return unknown();
    if (!challenge) {
      const result = verifyCard(ctx, nonce, true);
      if (!result) return unknown();
      return returnUrl ? c.redirect(returnTo(returnUrl, result), 303) : c.json(result);
    }
    const amount = c.req.query('amount') ?? '';
    return c.html(
      page(
        '3D Secure 2 test page',
        `<h1>3D Secure 2 test page</h1><p>Your bank asks you to confirm this payment${amount ? `: <strong>${esc(amount)}</strong>` : ''}.</p>
<form method="post"><input type="hidden" name="nonce" value="${esc(nonce)}">
<input type="hidden" name="return_url" value="${esc(returnUrl)}">
<button name="outcome" value="complete">Complete authentication</button>
<button class="fail" name="outcome" value="fail">Fail authentication</button></form>`,
      ),
    );
  });

  app.post('/_sandbox/three_d_secure', async (c) => {
    const form = await c.req.parseBody();
    const result = verifyCard(ctx, String(form.nonce ?? ''), form.outcome === 'complete');
    if (!result) return unknown();
    const returnUrl = String(form.return_url ?? '');
    return returnUrl ? c.redirect(returnTo(returnUrl, result), 303) : c.json(result);
  });
}
