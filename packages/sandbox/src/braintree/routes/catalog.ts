import { randomBytes } from 'node:crypto';
import type { Hono } from 'hono';
import type { SandboxContext } from '../domain/context.js';
import { obj, str } from '../domain/params.js';
import { fieldError, validationResult } from '../objects/errors.js';
import { array, boolean, datetime, integer, text, type XmlNode, xmlResponse } from '../objects/xml.js';
import type { SandboxDiscount, SandboxPlan } from '../store/records.js';
import { operation } from './operation.js';

function planNode(plan: SandboxPlan, at: string): XmlNode {
  return {
    id: plan.id,
    name: plan.name,
    description: text(plan.description ?? null),
    price: plan.price,
    'currency-iso-code': plan.currencyIsoCode ?? 'USD',
    'billing-frequency': integer(plan.billingFrequency),
    'billing-day-of-month': integer(null),
    'number-of-billing-cycles': integer(plan.numberOfBillingCycles ?? null),
    'trial-period': boolean(plan.trialPeriod ?? false),
    'trial-duration': integer(plan.trialDuration ?? null),
    'trial-duration-unit': text(plan.trialDurationUnit ?? null),
    'created-at': datetime(at),
    'updated-at': datetime(at),
    'add-ons': array('add-on', []),
    discounts: array('discount', []),
  };
}

function modificationNode(d: SandboxDiscount, kind: 'discount' | 'add_on', at: string): XmlNode {
  return {
    id: d.id,
    name: d.name,
    description: text(d.description ?? null),
    amount: d.amount,
    kind,
    'never-expires': boolean(d.neverExpires ?? d.numberOfBillingCycles == null),
    'number-of-billing-cycles': integer(d.numberOfBillingCycles ?? null),
    'created-at': datetime(at),
    'updated-at': datetime(at),
  };
}

export function catalogRoutes(app: Hono, ctx: SandboxContext, startedAt: string): void {
  const { store } = ctx;

  app.get(
    '/plans',
    operation(ctx, 'plan.all', () =>
      xmlResponse(
        'plans',
        array(
          'plan',
          [...store.plans.values()].map((p) => planNode(p, startedAt)),
        ),
      ),
    ),
  );

  app.get(
    '/discounts',
    operation(ctx, 'discount.all', () =>
      xmlResponse(
        'discounts',
        array(
          'discount',
          [...store.discounts.values()].map((d) => modificationNode(d, 'discount', startedAt)),
        ),
      ),
    ),
  );

  app.get(
    '/add_ons',
    operation(ctx, 'addOn.all', () =>
      xmlResponse(
        'add-ons',
        array(
          'add-on',
          [...store.addOns.values()].map((d) => modificationNode(d, 'add_on', startedAt)),
        ),
      ),
    ),
  );

  /** A stand-in client token (base64 JSON, like the real one); only this sandbox knows what it means. */
  app.post(
    '/client_token',
    operation(ctx, 'clientToken.generate', (params) => {
      const p = obj(params.clientToken);
      const customerId = str(p.customerId);
      if (customerId !== null && !store.customers.has(customerId)) {
        return validationResult([
          fieldError(
            ['client-token'],
            'customer_id',
            '92804',
            'Customer specified by customer_id does not exist',
          ),
        ]);
      }
      const token = Buffer.from(
        JSON.stringify({
          version: 2,
          environment: 'tollgate-sandbox',
          merchantId: ctx.credentials.merchantId,
          authorizationFingerprint: randomBytes(16).toString('hex'),
          customerId,
        }),
      ).toString('base64');
      return xmlResponse('client-token', { value: token }, 201);
    }),
  );
}
