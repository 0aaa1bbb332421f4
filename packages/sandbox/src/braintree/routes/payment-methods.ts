import type { Hono } from 'hono';
import type { SandboxContext } from '../domain/context.js';
import { bool, obj, str } from '../domain/params.js';
import { nonceForVaulted } from '../domain/three-d-secure.js';
import { isFieldError, removePaymentMethod, takeNonce, vault, verificationFailure } from '../domain/vault.js';
import { fieldError, notFound, validationResult } from '../objects/errors.js';
import { serializePaymentMethod } from '../objects/payments.js';
import { boolean, nil, xmlResponse } from '../objects/xml.js';
import type { PaymentMethodRecord } from '../store/records.js';
import { operation } from './operation.js';

export function paymentMethodRoutes(app: Hono, ctx: SandboxContext): void {
  const { store } = ctx;
  const show = (pm: PaymentMethodRecord, status = 200) => {
    const [tag, node] = serializePaymentMethod(store, pm);
    return xmlResponse(tag, node, status);
  };

  app.post(
    '/payment_methods',
    operation(ctx, 'paymentMethod.create', (params) => {
      const p = obj(params.paymentMethod);
      const customer = store.customers.get(str(p.customerId) ?? '');
      if (!customer) {
        return validationResult([
          fieldError(['payment-method'], 'customer_id', '93105', 'Customer ID is invalid.'),
        ]);
      }
      const nonce = str(p.paymentMethodNonce);
      if (nonce === null) {
        return validationResult([
          fieldError(['payment-method'], 'payment_method_nonce', '93103', 'Nonce is required.'),
        ]);
      }
      const instrument = takeNonce(ctx, nonce, 'payment-method');
      if (isFieldError(instrument)) return validationResult([instrument]);
      const options = obj(p.options);
      if (bool(options.verifyCard) === true) {
        const failure = verificationFailure(instrument);
        if (failure) return failure;
      }
      return show(vault(ctx, customer.id, instrument, bool(options.makeDefault) === true), 201);
    }),
  );

  app.post(
    '/payment_methods/:token/nonces',
    operation(ctx, 'paymentMethodNonce.create', (_p, c) => {
      const pm = store.paymentMethods.get(c.req.param('token') ?? '');
      if (!pm) return notFound();
      const nonce = nonceForVaulted(ctx, pm);
      return xmlResponse(
        'payment-method-nonce',
        {
          nonce,
          type: pm.kind === 'paypal_account' ? 'PayPalAccount' : 'CreditCard',
          default: boolean(store.isDefault(pm)),
          details: { bin: pm.bin ?? '', 'last-four': pm.last4 ?? '', 'card-type': pm.cardType ?? '' },
          'three-d-secure-info': nil(),
        },
        201,
      );
    }),
  );

  app.get(
    '/payment_methods/any/:token',
    operation(ctx, 'paymentMethod.find', (_p, c) => {
      const pm = store.paymentMethods.get(c.req.param('token') ?? '');
      return pm ? show(pm) : notFound();
    }),
  );

  app.put(
    '/payment_methods/any/:token',
    operation(ctx, 'paymentMethod.update', (params, c) => {
      const pm = store.paymentMethods.get(c.req.param('token') ?? '');
      if (!pm) return notFound();
      const p = obj(params.paymentMethod);
      const nonce = str(p.paymentMethodNonce);
      if (nonce !== null) {
        const instrument = takeNonce(ctx, nonce, 'payment-method');
        if (isFieldError(instrument)) return validationResult([instrument]);
        if (instrument.kind !== pm.kind) {
          return validationResult([
            fieldError(
              ['payment-method'],
              'payment_method_nonce',
              '93102',
              'Payment method nonce is invalid.',
            ),
          ]);
        }
        Object.assign(pm, instrument);
      }
      const card = ['expirationMonth', 'expirationYear'] as const;
      for (const field of card) if (str(p[field]) !== null) pm[field] = str(p[field]) ?? undefined;
      const customer = store.customers.get(pm.customerId);
      if (customer && bool(obj(p.options).makeDefault) === true) customer.defaultToken = pm.token;
      pm.updatedAt = store.now();
      return show(pm);
    }),
  );

  app.delete(
    '/payment_methods/any/:token',
    operation(ctx, 'paymentMethod.delete', async (_p, c) => {
      const pm = store.paymentMethods.get(c.req.param('token') ?? '');
      if (!pm) return notFound();
      await removePaymentMethod(ctx, pm);
      return new Response('', { status: 200 });
    }),
  );
}
