import type { Hono } from 'hono';
import type Stripe from 'stripe';
import { createCheckoutSession, expireSession, openSession } from '../domain/checkout.js';
import type { SandboxContext } from '../domain/context.js';
import { makePortalSession } from '../objects/checkout.js';
import { StripeSandboxError } from '../objects/errors.js';
import { list } from '../objects/subscriptions.js';
import { expand, respond, respondList, type SandboxContextHono, type SandboxEnv } from './respond.js';

/**
 * Checkout Sessions (https://docs.stripe.com/api/checkout/sessions) and customer portal sessions
 * (https://docs.stripe.com/api/customer_portal/sessions). Their `url` is the sandbox's own
 * stand-in page (`checkout-pages.ts`).
 */
export function registerCheckout(app: Hono<SandboxEnv>, ctx: SandboxContext): void {
  const { store } = ctx;

  /** A session as the API shows it: `line_items` only when expanded, as at Stripe. */
  const render = (c: SandboxContextHono, session: Stripe.Checkout.Session) => {
    const paths = c.get('params').expand();
    const out = expand(
      store,
      session,
      paths.filter((p) => p !== 'line_items'),
    ) as Record<string, unknown>;
    if (paths.includes('line_items'))
      out.line_items = list(lineItems(session.id), `/v1/checkout/sessions/${session.id}/line_items`);
    return c.json(out);
  };
  const lineItems = (id: string) => store.checkoutExtras.get(id)?.lineItems ?? [];
  const find = (c: SandboxContextHono) => {
    const session = store.checkoutSession(c.req.param('id') ?? '', 'session');
    openSession(ctx, session);
    return session;
  };

  app.post('/v1/checkout/sessions', (c) => render(c, createCheckoutSession(ctx, c.get('params'))));

  app.get('/v1/checkout/sessions', (c) => {
    const p = c.get('params');
    const customer = p.str('customer');
    const subscription = p.str('subscription');
    const sessions = [...store.checkoutSessions.values()].filter(
      (s) => (!customer || s.customer === customer) && (!subscription || s.subscription === subscription),
    );
    return respondList(c, store, sessions, '/v1/checkout/sessions');
  });

  app.get('/v1/checkout/sessions/:id', (c) => render(c, find(c)));

  app.get('/v1/checkout/sessions/:id/line_items', (c) =>
    respondList(c, store, lineItems(find(c).id), `/v1/checkout/sessions/${c.req.param('id')}/line_items`),
  );

  app.post('/v1/checkout/sessions/:id/expire', (c) => {
    const session = find(c);
    expireSession(ctx, session);
    return render(c, session);
  });

  app.post('/v1/billing_portal/sessions', (c) => {
    const p = c.get('params');
    const customer = store.customer(p.required('customer')).id;
    const returnUrl = p.str('return_url') ?? null;
    if (returnUrl === null)
      throw StripeSandboxError.invalid(
        'You must provide a return_url, or set a default one in your customer portal settings.',
        'return_url',
      );
    const session = makePortalSession(store.now(), {
      customer,
      returnUrl,
      url: (id) => `${store.publicUrl}/_sandbox/portal/${id}`,
    });
    store.portalSessions.set(session.id, session);
    return respond(c, store, session);
  });
}
