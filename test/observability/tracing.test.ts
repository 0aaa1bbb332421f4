import { SpanKind } from '@opentelemetry/api';
import { InMemorySpanExporter, type ReadableSpan, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Users } from '../../src/auth/users.js';
import { TestClock } from '../../src/core/clock.js';
import { defineMail, html } from '../../src/mail/index.js';
import { Mailer } from '../../src/mail/mailer.js';
import { mailProvider } from '../../src/mail/provider.js';
import { observabilityProvider } from '../../src/observability/provider.js';
import { startTracing, stopTracing } from '../../src/observability/tracing.js';
import { type BillingApp, startBillingApp, stopBillingApp } from '../billing/billing-app.js';
import { braintreeHarness } from '../billing/braintree-harness.js';
import type { TestUser } from '../billing/contract/context.js';
import type { EditionSandbox } from '../billing/harness.js';
import { stripeHarness } from '../billing/stripe-harness.js';
import { createTestApp } from '../support/app.js';
import { ANY_ENGINE, ENGINES } from '../support/engines.js';
import { startMailbox } from '../support/mailbox.js';

/** `span`'s ancestors up to the trace's root, nearest first. */
function ancestors(span: ReadableSpan, spans: ReadableSpan[]): ReadableSpan[] {
  const byId = new Map(spans.map((s) => [s.spanContext().spanId, s]));
  const chain: ReadableSpan[] = [];
  for (let parent = span.parentSpanContext; parent; ) {
    const found = byId.get(parent.spanId);
    if (!found) break;
    chain.push(found);
    parent = found.parentSpanContext;
  }
  return chain;
}

describe.each(ENGINES)('traces (%s)', (engine) => {
  describe.each([stripeHarness, braintreeHarness])('$edition', (harness) => {
    const clock = new TestClock(new Date('2026-01-15T12:00:00Z'));
    const { plans } = harness;
    // A stopped provider shuts its exporter down: one per edition.
    const exporter = new InMemorySpanExporter();
    let sandbox: EditionSandbox;
    let billing: BillingApp;
    let user: TestUser;

    beforeAll(async () => {
      await startTracing({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
      sandbox = await harness.startSandbox({
        clock,
        plans: [plans.monthly],
        coupons: [],
        currency: 'usd',
      });
      billing = await startBillingApp({
        engine,
        harness,
        sandbox,
        clock,
        billing: { plans: [plans.monthly] },
        controller: harness.webhook.controller,
        providers: [observabilityProvider()],
        setup(app) {
          app.router
            .post('/subscribe', async (c) => {
              const sub = await user.newSubscription('main', plans.monthly.id).create(harness.tokens.card);
              return c.json({ id: sub.id });
            })
            .name('test.subscribe');
        },
      });
      user = await billing.t.app.container.make(Users).create<TestUser>({
        name: 'Traced',
        email: 'traced@example.com',
        password: 'correct horse battery',
      });
    });
    afterAll(async () => {
      await stopBillingApp(billing, sandbox);
      await stopTracing();
    });

    it('one trace spans the request, its queries and its calls to the provider, under the caller’s traceparent', async () => {
      exporter.reset();
      const traceId = '4bf92f3577b34da6a3ce929d0e0e4736';
      const parentId = '00f067aa0ba902b7';
      const res = await fetch(`${billing.server.url}/subscribe`, {
        method: 'POST',
        headers: { traceparent: `00-${traceId}-${parentId}-01` },
      });
      expect(res.status).toBe(200);
      expect(res.headers.get('x-request-id')).toBe(traceId);
      await sandbox.settled();

      const spans = exporter.getFinishedSpans().filter((s) => s.spanContext().traceId === traceId);
      const server = spans.filter((s) => s.kind === SpanKind.SERVER);
      expect(server.map((s) => s.name)).toEqual(['POST test.subscribe']);
      const root = server[0]!;
      expect(root.parentSpanContext?.spanId).toBe(parentId);
      expect(root.attributes).toMatchObject({
        'http.route': 'test.subscribe',
        'http.request.method': 'POST',
        'http.response.status_code': 200,
      });

      const queries = spans.filter((s) => s.attributes['db.system.name'] !== undefined);
      expect(queries.map((s) => s.name)).toContain('INSERT subscriptions');
      for (const q of queries) {
        expect(q.attributes['db.system.name']).toBe(engine === 'postgres' ? 'postgresql' : 'sqlite');
        expect(ancestors(q, spans)).toContain(root);
      }

      const calls = spans.filter((s) => s.attributes['tollgate.payment.provider'] === harness.edition);
      expect(calls.length).toBeGreaterThan(0);
      for (const call of calls) {
        expect(call.kind).toBe(SpanKind.CLIENT);
        // Stripe answers 200, Braintree 201 to a creation.
        expect(call.attributes['http.response.status_code']).toBeOneOf([200, 201]);
        expect(ancestors(call, spans)).toContain(root);
      }
      expect(calls.map((s) => `${s.name} ${s.attributes['url.path']}`)).toContainEqual(
        expect.stringMatching(/^POST \S*\/subscriptions$/),
      );
    });

    it('a webhook is its own trace: the request, then a span named by the event over its queries', async () => {
      const webhooks = exporter
        .getFinishedSpans()
        .filter((s) => s.name === `billing webhook ${harness.webhook.paidEvent}`);
      // The sandbox may deliver an event twice; each delivery is a trace of its own.
      expect(webhooks.length).toBeGreaterThan(0);
      for (const webhook of webhooks) {
        const spans = exporter
          .getFinishedSpans()
          .filter((s) => s.spanContext().traceId === webhook.spanContext().traceId);
        const [server] = ancestors(webhook, spans);
        expect(server?.kind).toBe(SpanKind.SERVER);
        expect(server?.attributes['url.path']).toBe(harness.webhook.path);
        expect(webhook.attributes).toMatchObject({ 'tollgate.webhook.type': harness.webhook.paidEvent });
        // The event's claim is a statement under the webhook's span.
        const under = spans.filter((s) => ancestors(s, spans).includes(webhook));
        expect(under.map((s) => s.attributes['db.system.name'])).toContain(
          engine === 'postgres' ? 'postgresql' : 'sqlite',
        );
      }
    });

    it('without a traceparent the request starts a trace, whose id is its X-Request-Id', async () => {
      exporter.reset();
      const res = await fetch(`${billing.server.url}/ready`);
      const id = res.headers.get('x-request-id');
      const [server] = exporter.getFinishedSpans().filter((s) => s.kind === SpanKind.SERVER);
      expect(server?.name).toBe('GET ready');
      expect(server?.parentSpanContext).toBeUndefined();
      expect(server?.spanContext().traceId).toBe(id);
    });
  });
});

describe('traces of the mail worker', () => {
  it('a mail handed to the SMTP server is a client span of its own, named by the mail', async () => {
    // A stopped provider shut its exporter down: a new one.
    const exporter = new InMemorySpanExporter();
    await startTracing({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
    const mailbox = await startMailbox();
    const t = await createTestApp({
      engine: ANY_ENGINE,
      config: { mail: { url: mailbox.url, from: 'no-reply@acme.test', worker: { pollMs: 0 } } },
      providers: [mailProvider()],
    });
    try {
      const note = defineMail<Record<string, never>>({
        name: 'note',
        subject: () => 'Note',
        text: () => 'A note',
        html: () => html`<p>A note</p>`,
      });
      const mailer = t.app.container.make(Mailer);
      await mailer.send(note, 'ada@example.com', {});
      await mailer.drain();
      await mailbox.waitFor('ada@example.com');
      const sends = exporter.getFinishedSpans().filter((s) => s.name === 'mail send');
      expect(sends).toHaveLength(1);
      expect(sends[0]!.kind).toBe(SpanKind.CLIENT);
      expect(sends[0]!.attributes).toMatchObject({
        'tollgate.mail.kind': 'note',
        'tollgate.mail.attempt': 1,
      });
    } finally {
      await t.close();
      await mailbox.close();
      await stopTracing();
    }
  });
});
