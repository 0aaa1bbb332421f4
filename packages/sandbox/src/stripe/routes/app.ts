import { Hono } from 'hono';
import { matchedRoutes } from 'hono/route';
import type { SandboxContext } from '../domain/context.js';
import { Params, type RawParams } from '../domain/params.js';
import { API_VERSION } from '../domain/webhooks.js';
import { StripeSandboxError } from '../objects/errors.js';
import { newId } from '../objects/ids.js';
import { registerCatalog } from './catalog.js';
import { registerCharges } from './charges.js';
import { registerCheckout } from './checkout.js';
import { registerCheckoutPages } from './checkout-pages.js';
import { registerCouponsAndTaxRates } from './coupons-and-tax-rates.js';
import { registerCustomers } from './customers.js';
import { registerEvents } from './events.js';
import { readParams } from './form.js';
import { registerHostedPages } from './hosted-pages.js';
import { registerIntents } from './intents.js';
import { registerInvoiceItems } from './invoice-items.js';
import { registerInvoices } from './invoices.js';
import { unknownParam } from './known-params.js';
import { registerMeters } from './meters.js';
import { registerPaymentMethods } from './payment-methods.js';
import type { SandboxEnv } from './respond.js';
import { registerSubscriptions } from './subscriptions.js';

/** One API request as the sandbox received it, for tests to assert what a client sent. */
export interface RequestLogEntry {
  method: string;
  path: string;
  params: RawParams;
  idempotencyKey: string | null;
  status: number;
  at: Date;
}

interface StoredResponse {
  fingerprint: string;
  status: number;
  body: string;
  at: number;
}

/** Stripe keeps idempotency keys for at least 24 hours; so does the sandbox (wall-clock time). */
const IDEMPOTENCY_TTL_MS = 24 * 3600 * 1000;
/** A long-running sandbox keeps only the latest requests in its log. */
export const REQUEST_LOG_LIMIT = 10_000;

export interface ControlHooks {
  advance(seconds: number): Promise<number>;
  runDue(): Promise<number>;
  state(): unknown;
}

/** `Authorization: Bearer sk_test_…` (or HTTP Basic with the key as user name), as Stripe accepts. */
function apiKey(header: string | undefined): string {
  if (!header) throw StripeSandboxError.unauthenticated();
  let key = '';
  if (header.startsWith('Bearer ')) key = header.slice(7).trim();
  else if (header.startsWith('Basic '))
    key = Buffer.from(header.slice(6), 'base64').toString().split(':')[0] ?? '';
  if (key === '') throw StripeSandboxError.unauthenticated();
  if (!key.startsWith('sk_test_')) throw StripeSandboxError.invalidKey();
  return key;
}

export function createSandboxApp(
  ctx: SandboxContext,
  requests: RequestLogEntry[],
  hooks: ControlHooks,
): Hono<SandboxEnv> {
  const app = new Hono<SandboxEnv>();
  const idempotent = new Map<string, StoredResponse>();
  // Keys whose first request is still executing (Stripe answers a concurrent one 409).
  const inFlight = new Set<string>();

  app.onError((error, c) => {
    c.header('request-id', newId('req'));
    if (error instanceof StripeSandboxError) return c.json(error.toJSON(), error.status);
    const body = new StripeSandboxError(500, {
      type: 'api_error',
      message: `Stripe sandbox error: ${error.message}`,
    });
    return c.json(body.toJSON(), 500);
  });

  // The hosted pages' links use the address the sandbox was reached at.
  app.use('*', async function publicUrl(c, next) {
    ctx.store.publicUrl = new URL(c.req.url).origin;
    await next();
  });

  app.post('/_sandbox/advance', async (c) => {
    const params = new Params(await readParams(c.req.raw));
    const seconds = params.num('seconds') ?? Number.NaN;
    if (!Number.isFinite(seconds) || seconds < 0) {
      throw StripeSandboxError.invalid('seconds must be a non-negative number', 'seconds');
    }
    const steps = await hooks.advance(seconds);
    return c.json({ now: ctx.store.clockSeconds(), steps });
  });
  app.post('/_sandbox/run-due', async (c) =>
    c.json({ now: ctx.store.clockSeconds(), steps: await hooks.runDue() }),
  );
  app.get('/_sandbox/state', (c) => c.json(hooks.state() as object));
  // Answers once every webhook delivery scheduled so far is done or given up (realistic delivery).
  app.post('/_sandbox/settle', async (c) => {
    await ctx.events.scheduler.settled();
    return c.json({ settled: true });
  });

  app.use('/v1/*', async function stripeRequest(c, next) {
    const params = new Params(await readParams(c.req.raw));
    c.set('params', params);
    const key = c.req.header('idempotency-key') ?? null;
    const entry: RequestLogEntry = {
      method: c.req.method,
      path: c.req.path,
      params: params.raw,
      idempotencyKey: key,
      status: 0,
      at: new Date(),
    };
    requests.push(entry);
    if (requests.length > REQUEST_LOG_LIMIT) requests.splice(0, requests.length - REQUEST_LOG_LIMIT);
    c.header('request-id', newId('req'));
    // Stripe's answers carry its clock, as its events' `created` do: the sandbox's clock, here.
    c.header('date', new Date(ctx.store.clockSeconds() * 1000).toUTCString());
    c.header('stripe-version', API_VERSION);
    let account: string;
    try {
      account = apiKey(c.req.header('authorization'));
    } catch (error) {
      entry.status = 401;
      throw error;
    }
    // Refused before anything runs, as Stripe does.
    const route = matchedRoutes(c)
      .filter((r) => r.method !== 'ALL')
      .at(-1)?.path;
    const unknown = route ? unknownParam(`${c.req.method} ${route}`, Object.keys(params.raw)) : undefined;
    if (unknown !== undefined) {
      entry.status = 400;
      throw StripeSandboxError.unknownParam(unknown);
    }

    // https://docs.stripe.com/api/idempotent_requests: same key → the first response, replayed.
    const scope = key && c.req.method === 'POST' ? `${account}\n${key}` : null;
    const fingerprint = `${c.req.method} ${c.req.path} ${JSON.stringify(params.raw)}`;
    const stored = scope ? idempotent.get(scope) : undefined;
    if (stored) {
      if (stored.fingerprint !== fingerprint) throw StripeSandboxError.idempotencyMismatch(key!);
      entry.status = stored.status;
      return new Response(stored.body, {
        status: stored.status,
        headers: {
          'content-type': 'application/json',
          'idempotent-replayed': 'true',
          'idempotency-key': key!,
        },
      });
    }
    if (scope && inFlight.has(scope)) {
      entry.status = 409;
      throw StripeSandboxError.idempotencyKeyInUse(key!);
    }
    if (scope) inFlight.add(scope);
    try {
      await ctx.events.withRequest(key, async () => {
        await next();
      });
      await ctx.events.flush();
      entry.status = c.res.status;
      if (scope) {
        const now = Date.now();
        for (const [k, v] of idempotent) {
          if (now - v.at < IDEMPOTENCY_TTL_MS) break;
          idempotent.delete(k);
        }
        const body = await c.res.clone().text();
        idempotent.set(scope, { fingerprint, status: c.res.status, body, at: now });
        c.header('idempotency-key', key!);
      }
    } finally {
      // Only once the response is stored, so a concurrent request either waits (409) or replays.
      if (scope) inFlight.delete(scope);
    }
  });

  registerCustomers(app, ctx);
  registerCatalog(app, ctx);
  registerMeters(app, ctx);
  registerCouponsAndTaxRates(app, ctx);
  registerEvents(app, ctx);
  registerCharges(app, ctx);
  registerPaymentMethods(app, ctx);
  registerIntents(app, ctx);
  registerHostedPages(app, ctx);
  registerCheckout(app, ctx);
  registerCheckoutPages(app, ctx);
  registerSubscriptions(app, ctx);
  registerInvoiceItems(app, ctx);
  registerInvoices(app, ctx);

  app.notFound((c) => {
    const error = StripeSandboxError.unknownRoute(c.req.method, c.req.path);
    return c.json(error.toJSON(), 404);
  });
  return app;
}
