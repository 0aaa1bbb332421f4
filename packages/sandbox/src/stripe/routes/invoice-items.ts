import type { Hono } from 'hono';
import type { SandboxContext } from '../domain/context.js';
import { addLines, itemLine } from '../domain/invoice-builder.js';
import { StripeSandboxError } from '../objects/errors.js';
import { makeInvoiceItem } from '../objects/invoices.js';
import { respond, respondList, type SandboxEnv } from './respond.js';

/** Invoice items: one-off amounts waiting for the customer's next invoice (https://docs.stripe.com/api/invoiceitems). */
export function registerInvoiceItems(app: Hono<SandboxEnv>, ctx: SandboxContext): void {
  const { store, events } = ctx;

  app.post('/v1/invoiceitems', (c) => {
    const p = c.get('params');
    const customer = store.customer(p.required('customer'));
    const amount = p.int('amount');
    if (amount === undefined) throw StripeSandboxError.missingParam('amount');
    const subscription = p.str('subscription') ?? null;
    if (subscription) store.subscription(subscription);
    const invoiceId = p.str('invoice');
    const invoice = invoiceId ? store.invoice(invoiceId) : null;
    if (invoice && invoice.status !== 'draft') {
      throw StripeSandboxError.invalid(
        'You can only add invoice items to draft invoices.',
        'invoice',
        'invoice_not_editable',
      );
    }
    const now = store.now();
    const period = p.object('period');
    const item = makeInvoiceItem(now, {
      customer: customer.id,
      amount,
      currency: (p.str('currency') ?? customer.currency ?? 'usd').toLowerCase(),
      description: p.str('description') ?? null,
      period: { start: period?.int('start') ?? now, end: period?.int('end') ?? now },
      metadata: p.metadata() ?? {},
      subscription,
      proration: false,
      price: null,
    });
    store.invoiceItems.set(item.id, item);
    if (invoice) addLines(ctx, invoice, [itemLine(item)]);
    events.emit('invoiceitem.created', item);
    return respond(c, store, item);
  });

  app.get('/v1/invoiceitems', (c) => {
    const p = c.get('params');
    const customer = p.str('customer');
    const pending = p.bool('pending');
    const items = [...store.invoiceItems.values()].filter(
      (i) =>
        (!customer || i.customer === customer) && (pending === undefined || (i.invoice === null) === pending),
    );
    return respondList(c, store, items, '/v1/invoiceitems');
  });

  app.get('/v1/invoiceitems/:id', (c) => {
    const item = store.invoiceItems.get(c.req.param('id'));
    if (!item) throw StripeSandboxError.noSuch('invoiceitem', c.req.param('id'));
    return respond(c, store, item);
  });

  app.delete('/v1/invoiceitems/:id', (c) => {
    const item = store.invoiceItems.get(c.req.param('id'));
    if (!item) throw StripeSandboxError.noSuch('invoiceitem', c.req.param('id'));
    if (item.invoice !== null)
      throw StripeSandboxError.invalid('This invoice item is already on an invoice.');
    store.invoiceItems.delete(item.id);
    events.emit('invoiceitem.deleted', item);
    return c.json({ id: item.id, object: 'invoiceitem', deleted: true });
  });
}
