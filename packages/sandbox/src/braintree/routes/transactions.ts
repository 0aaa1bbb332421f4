import type { Hono } from 'hono';
import { charge, refusalMessage, refused } from '../domain/charges.js';
import type { SandboxContext } from '../domain/context.js';
import { retryPastDue } from '../domain/lifecycle.js';
import { bool, obj, type Params, str } from '../domain/params.js';
import { takeIssued, vault } from '../domain/vault.js';
import { errorResult, type FieldError, fieldError, notFound, validationResult } from '../objects/errors.js';
import { parseAmount, unitScale } from '../objects/money.js';
import { serializeTransaction } from '../objects/transactions.js';
import { array, collection, integer, xmlResponse } from '../objects/xml.js';
import type { Instrument, ThreeDSecureInfo, TransactionRecord } from '../store/records.js';
import { operation } from './operation.js';
import { matchesAll, PAGE_SIZE } from './search.js';

const PATH = ['transaction'];

function searchFields(t: TransactionRecord): Record<string, string | number | null> {
  return {
    id: t.id,
    ids: t.id,
    customerId: t.customerId,
    paymentMethodToken: t.paymentMethodToken,
    status: t.status,
    type: t.type,
    amount: t.amount / unitScale(t.currencyIsoCode),
    createdAt: t.createdAt,
    orderId: t.orderId,
    currency: t.currencyIsoCode,
  };
}

export function transactionRoutes(app: Hono, ctx: SandboxContext): void {
  const { store } = ctx;
  const show = (t: TransactionRecord, status = 200) =>
    xmlResponse('transaction', serializeTransaction(store, t), status);
  const find = (id: string | undefined) => store.transactions.get(id ?? '');

  /** Which instrument to charge: a nonce, a vaulted token, or the customer's default method. */
  function source(
    p: Params,
    errors: FieldError[],
  ): {
    instrument: Instrument;
    token: string | null;
    customerId: string | null;
    threeDSecureInfo: ThreeDSecureInfo | null;
  } | null {
    const customerId = str(p.customerId);
    if (customerId !== null && !store.customers.has(customerId))
      errors.push(fieldError(PATH, 'customer_id', '91510', 'Customer ID is invalid.'));
    const nonce = str(p.paymentMethodNonce);
    if (nonce !== null) {
      const issued = takeIssued(ctx, nonce, 'transaction');
      if ('code' in issued) {
        errors.push(issued);
        return null;
      }
      // A nonce made from a vaulted method charges that method (and its customer).
      const pm = store.paymentMethods.get(issued.token ?? '');
      return pm
        ? {
            instrument: pm,
            token: pm.token,
            customerId: pm.customerId,
            threeDSecureInfo: issued.threeDSecureInfo,
          }
        : { ...issued, token: null, customerId };
    }
    const token =
      str(p.paymentMethodToken) ??
      (customerId ? (store.customers.get(customerId)?.defaultToken ?? null) : null);
    const pm = store.paymentMethods.get(token ?? '');
    if (!pm) {
      errors.push(fieldError(PATH, 'payment_method_token', '91518', 'Payment method token is invalid.'));
      return null;
    }
    return { instrument: pm, token: pm.token, customerId: pm.customerId, threeDSecureInfo: null };
  }

  /** `subscription.retryCharge` arrives as a sale with `subscriptionId`: charge the past-due balance now. */
  async function retryCharge(p: Params, subscriptionId: string): Promise<Response> {
    const s = store.subscriptions.get(subscriptionId);
    if (!s)
      return validationResult([fieldError(PATH, 'subscription_id', '91528', 'Subscription ID is invalid.')]);
    if (s.status !== 'Past Due') {
      return validationResult([
        fieldError(PATH, 'base', '91531', 'Subscription status must be Past Due in order to retry.'),
      ]);
    }
    const amount =
      p.amount === undefined || p.amount === null ? s.balance : parseAmount(p.amount, s.currencyIsoCode);
    if (amount === null || amount <= 0) {
      return validationResult([fieldError(PATH, 'amount', '81503', 'Amount is an invalid format.')]);
    }
    const outcome = await retryPastDue(ctx, s, false, amount);
    const t = outcome.transaction;
    if (!t) throw new Error('a positive retry amount always creates a transaction');
    if (!outcome.ok)
      return errorResult(t.processorResponseText, [], { transaction: serializeTransaction(store, t) });
    return show(t, 201);
  }

  app.post(
    '/transactions',
    operation(ctx, 'transaction.sale', (params) => {
      const p = obj(params.transaction);
      const subscriptionId = str(p.subscriptionId);
      if (subscriptionId !== null) return retryCharge(p, subscriptionId);
      const errors: FieldError[] = [];
      const amount = parseAmount(p.amount, ctx.currencyIsoCode);
      if (p.amount === undefined || p.amount === null || p.amount === '')
        errors.push(fieldError(PATH, 'amount', '81502', 'Amount is required.'));
      else if (amount === null)
        errors.push(fieldError(PATH, 'amount', '81503', 'Amount is an invalid format.'));
      const from = source(p, errors);
      if (errors.length > 0 || from === null || amount === null) return validationResult(errors);
      const options = obj(p.options);
      let token = from.token;
      if (
        token === null &&
        from.customerId !== null &&
        bool(options.storeInVaultOnSuccess) === true &&
        !from.instrument.declines
      ) {
        token = vault(ctx, from.customerId, from.instrument, false).token;
      }
      const t = charge(ctx, {
        amount,
        instrument: from.instrument,
        token,
        customerId: from.customerId,
        currencyIsoCode: ctx.currencyIsoCode,
        submitForSettlement: bool(options.submitForSettlement) === true,
        orderId: str(p.orderId),
        customFields: Object.fromEntries(
          Object.entries(obj(p.customFields)).map(([k, v]) => [k, str(v) ?? '']),
        ),
        threeDSecure: {
          info: from.threeDSecureInfo,
          required: bool(obj(options.threeDSecure).required) !== false,
        },
      });
      if (refused(t))
        return errorResult(refusalMessage(t), [], { transaction: serializeTransaction(store, t) });
      return show(t, 201);
    }),
  );

  app.get(
    '/transactions/:id',
    operation(ctx, 'transaction.find', (_p, c) => {
      const t = find(c.req.param('id'));
      return t ? show(t) : notFound();
    }),
  );

  /** Advanced search, step 1: the matching ids, newest first, and the page size. */
  app.post(
    '/transactions/advanced_search_ids',
    operation(ctx, 'transaction.search', (params) => {
      const search = obj(params.search);
      const ids = [...store.transactions.values()]
        .filter((t) => matchesAll(search, searchFields(t)))
        .sort((a, b) => b.createdAt.localeCompare(a.createdAt))
        .map((t) => t.id);
      return xmlResponse('search-results', { 'page-size': integer(PAGE_SIZE), ids: array('item', ids) });
    }),
  );

  /** Advanced search, step 2: one page of full transactions for the ids the SDK asks for. */
  app.post(
    '/transactions/advanced_search',
    operation(ctx, 'transaction.searchPage', (params) => {
      const ids = obj(params.search).ids;
      const wanted = Array.isArray(ids) ? ids.map(String) : [];
      const page = wanted.map((id) => store.transactions.get(id)).filter((t) => t !== undefined);
      return xmlResponse(
        'credit-card-transactions',
        collection(
          'transaction',
          page.map((t) => serializeTransaction(store, t)),
          PAGE_SIZE,
        ),
      );
    }),
  );

  app.put(
    '/transactions/:id/void',
    operation(ctx, 'transaction.void', (_p, c) => {
      const t = find(c.req.param('id'));
      if (!t) return notFound();
      if (t.status !== 'authorized' && t.status !== 'submitted_for_settlement') {
        return validationResult([
          fieldError(
            PATH,
            'base',
            '91504',
            'Transaction can only be voided if status is authorized, submitted_for_settlement, or - for PayPal - settlement_pending.',
          ),
        ]);
      }
      Object.assign(t, { status: 'voided', updatedAt: store.now() });
      return show(t);
    }),
  );

  app.put(
    '/transactions/:id/submit_for_settlement',
    operation(ctx, 'transaction.submitForSettlement', (_p, c) => {
      const t = find(c.req.param('id'));
      if (!t) return notFound();
      if (t.status !== 'authorized') {
        return validationResult([
          fieldError(PATH, 'base', '91507', 'Cannot submit for settlement unless status is authorized.'),
        ]);
      }
      Object.assign(t, { status: 'submitted_for_settlement', updatedAt: store.now() });
      return show(t);
    }),
  );
}
