import type { Hono } from 'hono';
import type Stripe from 'stripe';
import { attachToken } from '../domain/cards.js';
import type { SandboxContext } from '../domain/context.js';
import { mergeMetadata, type Params } from '../domain/params.js';
import { attachById, attachedTo } from '../domain/payment-methods.js';
import { cancelSubscription } from '../domain/subscription-state.js';
import { StripeSandboxError } from '../objects/errors.js';
import { makeCustomer } from '../objects/payments.js';
import { list } from '../objects/subscriptions.js';
import { snapshot } from '../store/store.js';
import { expand, respondList, type SandboxEnv } from './respond.js';

/** Customers and their card sources (https://docs.stripe.com/api/customers, /api/sources). */
export function registerCustomers(app: Hono<SandboxEnv>, ctx: SandboxContext): void {
  const { store, events } = ctx;

  const cardsOf = (customer: string) =>
    [...store.cards.values()].filter((card) => card.customer === customer);

  /** The customer as returned: `sources` only when expanded, as in the current API. */
  const render = (customer: Stripe.Customer, params: Params): unknown => {
    const paths = params.expand();
    const out: Stripe.Customer = snapshot(customer);
    if (paths.includes('sources'))
      out.sources = list(cardsOf(customer.id), `/v1/customers/${customer.id}/sources`);
    return expand(
      store,
      out,
      paths.filter((p) => p !== 'sources'),
    );
  };

  const liveCustomer = (id: string): Stripe.Customer => {
    if (store.deletedCustomers.has(id)) throw StripeSandboxError.noSuch('customer', id);
    return store.customer(id, 'id');
  };

  app.post('/v1/customers', (c) => {
    const p = c.get('params');
    const customer = makeCustomer(store.now(), {
      email: p.str('email') ?? null,
      name: p.str('name') ?? null,
      description: p.str('description') ?? null,
      phone: p.str('phone') ?? null,
      metadata: p.metadata() ?? {},
    });
    const source = p.str('source');
    // Attach first: a declined card means no customer is created.
    if (source) customer.default_source = attachToken(store, customer.id, source).id;
    // `payment_method` attaches; the same id in `invoice_settings` names that one (a test id too).
    const pmParam = p.str('payment_method');
    const attached = pmParam ? attachById(ctx, pmParam, customer.id, 'payment_method') : null;
    const defaultPm = p.object('invoice_settings')?.str('default_payment_method');
    if (defaultPm) {
      const id = defaultPm === pmParam && attached ? attached : defaultPm;
      customer.invoice_settings.default_payment_method = attachedTo(
        ctx,
        id,
        customer.id,
        'invoice_settings[default_payment_method]',
      );
    }
    store.customers.set(customer.id, customer);
    events.emit('customer.created', customer);
    return c.json(render(customer, p) as object);
  });

  app.get('/v1/customers', (c) => {
    const email = c.get('params').str('email');
    const all = [...store.customers.values()].filter((cu) => !store.deletedCustomers.has(cu.id));
    return respondList(c, store, email ? all.filter((cu) => cu.email === email) : all, '/v1/customers');
  });

  app.get('/v1/customers/:id', (c) => {
    const id = c.req.param('id');
    if (store.deletedCustomers.has(id)) return c.json({ id, object: 'customer', deleted: true });
    return c.json(render(store.customer(id, 'id'), c.get('params')) as object);
  });

  app.post('/v1/customers/:id', (c) => {
    const p = c.get('params');
    const customer = liveCustomer(c.req.param('id'));
    const before = snapshot(customer);
    const source = p.str('source');
    if (source) {
      // "Passing source will create a new source object, make it the new customer default
      // source, and delete the old customer default if one exists."
      const card = attachToken(store, customer.id, source);
      if (typeof customer.default_source === 'string') store.cards.delete(customer.default_source);
      customer.default_source = card.id;
    }
    const defaultSource = p.str('default_source');
    if (defaultSource) {
      if (store.cards.get(defaultSource)?.customer !== customer.id) {
        throw StripeSandboxError.noSuch('source', defaultSource, 'default_source');
      }
      customer.default_source = defaultSource;
    }
    const settings = p.object('invoice_settings');
    if (settings?.has('default_payment_method')) {
      const pm = settings.str('default_payment_method');
      customer.invoice_settings.default_payment_method = pm
        ? attachedTo(ctx, pm, customer.id, 'invoice_settings[default_payment_method]')
        : null;
    }
    if (p.has('email')) customer.email = p.str('email') || null;
    if (p.has('name')) customer.name = p.str('name') || null;
    if (p.has('description')) customer.description = p.str('description') || null;
    if (p.has('phone')) customer.phone = p.str('phone') || null;
    if (p.has('metadata')) customer.metadata = mergeMetadata(customer.metadata, p.raw.metadata);
    const previous: Record<string, unknown> = {};
    for (const [key, value] of Object.entries(before)) {
      if (JSON.stringify(value) !== JSON.stringify((customer as unknown as Record<string, unknown>)[key])) {
        previous[key] = value;
      }
    }
    if (Object.keys(previous).length > 0) events.emit('customer.updated', customer, previous);
    return c.json(render(customer, p) as object);
  });

  app.delete('/v1/customers/:id', (c) => {
    const customer = liveCustomer(c.req.param('id'));
    store.deletedCustomers.add(customer.id);
    // Deleting a customer cancels its subscriptions at once, as at Stripe.
    for (const sub of store.subscriptions.values()) {
      const live = sub.status !== 'canceled' && sub.status !== 'incomplete_expired';
      if (sub.customer === customer.id && live) cancelSubscription(ctx, sub, 'cancellation_requested');
    }
    events.emit('customer.deleted', customer);
    return c.json({ id: customer.id, object: 'customer', deleted: true });
  });

  app.get('/v1/customers/:id/sources', (c) => {
    const customer = liveCustomer(c.req.param('id'));
    return respondList(c, store, cardsOf(customer.id), `/v1/customers/${customer.id}/sources`);
  });

  app.post('/v1/customers/:id/sources', (c) => {
    const p = c.get('params');
    const customer = liveCustomer(c.req.param('id'));
    const card = attachToken(store, customer.id, p.required('source'));
    if (!customer.default_source) {
      customer.default_source = card.id;
      events.emit('customer.updated', customer, { default_source: null });
    }
    return c.json(card);
  });

  app.get('/v1/customers/:id/sources/:card', (c) => {
    const customer = liveCustomer(c.req.param('id'));
    const card = store.cards.get(c.req.param('card'));
    if (!card || card.customer !== customer.id)
      throw StripeSandboxError.noSuch('source', c.req.param('card'));
    return c.json(card);
  });

  app.delete('/v1/customers/:id/sources/:card', (c) => {
    const customer = liveCustomer(c.req.param('id'));
    const card = store.cards.get(c.req.param('card'));
    if (!card || card.customer !== customer.id)
      throw StripeSandboxError.noSuch('source', c.req.param('card'));
    store.cards.delete(card.id);
    if (customer.default_source === card.id) {
      customer.default_source = cardsOf(customer.id)[0]?.id ?? null;
      events.emit('customer.updated', customer, { default_source: card.id });
    }
    return c.json({ id: card.id, object: 'card', deleted: true });
  });
}
