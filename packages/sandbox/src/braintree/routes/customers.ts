import type { Hono } from 'hono';
import type { SandboxContext } from '../domain/context.js';
import { bool, obj, type Params, str } from '../domain/params.js';
import { isFieldError, removePaymentMethod, takeNonce, vault, verificationFailure } from '../domain/vault.js';
import { fieldError, notFound, validationResult } from '../objects/errors.js';
import { serializeCustomer } from '../objects/payments.js';
import { xmlResponse } from '../objects/xml.js';
import type { CustomerRecord } from '../store/records.js';
import { operation } from './operation.js';

const FIELDS = ['firstName', 'lastName', 'email', 'company', 'phone'] as const;

/** Vaults `paymentMethodNonce` (or `creditCard.paymentMethodNonce`) for the customer, if one was sent. */
function vaultFromParams(ctx: SandboxContext, customer: CustomerRecord, p: Params): Response | null {
  const card = obj(p.creditCard);
  const nonce = str(p.paymentMethodNonce) ?? str(card.paymentMethodNonce);
  if (nonce === null) return null;
  const instrument = takeNonce(ctx, nonce, 'customer');
  if (isFieldError(instrument)) return validationResult([instrument]);
  const options = obj(card.options);
  if (bool(options.verifyCard) === true) {
    const failure = verificationFailure(instrument);
    if (failure) return failure;
  }
  vault(ctx, customer.id, instrument, bool(options.makeDefault) ?? true);
  return null;
}

export function customerRoutes(app: Hono, ctx: SandboxContext): void {
  const { store } = ctx;
  const show = (customer: CustomerRecord, status = 201) =>
    xmlResponse('customer', serializeCustomer(store, customer), status);

  app.post(
    '/customers',
    operation(ctx, 'customer.create', (params) => {
      const p = obj(params.customer);
      const now = store.now();
      const customer: CustomerRecord = {
        id: str(p.id) ?? store.newId(store.customers),
        firstName: null,
        lastName: null,
        email: null,
        company: null,
        phone: null,
        defaultToken: null,
        createdAt: now,
        updatedAt: now,
      };
      for (const field of FIELDS) customer[field] = str(p[field]);
      if (store.customers.has(customer.id)) {
        return validationResult([
          fieldError(['customer'], 'id', '91609', 'Customer ID has already been taken.'),
        ]);
      }
      const failure = vaultFromParams(ctx, customer, p);
      if (failure) {
        for (const pm of store.paymentMethodsOf(customer.id)) store.paymentMethods.delete(pm.token);
        return failure;
      }
      store.customers.set(customer.id, customer);
      // The default was chosen before the customer was stored; settle it now.
      customer.defaultToken = store.paymentMethodsOf(customer.id)[0]?.token ?? null;
      return show(customer);
    }),
  );

  app.get(
    '/customers/:id',
    operation(ctx, 'customer.find', (_p, c) => {
      const customer = store.customers.get(c.req.param('id') ?? '');
      return customer ? show(customer, 200) : notFound();
    }),
  );

  app.put(
    '/customers/:id',
    operation(ctx, 'customer.update', (params, c) => {
      const customer = store.customers.get(c.req.param('id') ?? '');
      if (!customer) return notFound();
      const p = obj(params.customer);
      for (const field of FIELDS) if (field in p) customer[field] = str(p[field]);
      const failure = vaultFromParams(ctx, customer, p);
      if (failure) return failure;
      const token = str(p.defaultPaymentMethodToken);
      if (token !== null && store.paymentMethods.get(token)?.customerId === customer.id)
        customer.defaultToken = token;
      customer.updatedAt = store.now();
      return show(customer, 200);
    }),
  );

  app.delete(
    '/customers/:id',
    operation(ctx, 'customer.delete', async (_p, c) => {
      const customer = store.customers.get(c.req.param('id') ?? '');
      if (!customer) return notFound();
      for (const pm of store.paymentMethodsOf(customer.id)) await removePaymentMethod(ctx, pm);
      store.customers.delete(customer.id);
      return new Response('', { status: 200 });
    }),
  );
}
