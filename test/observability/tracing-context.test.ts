import { context, ROOT_CONTEXT, SpanKind, trace } from '@opentelemetry/api';
import { InMemorySpanExporter, type ReadableSpan, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { sql } from 'kysely';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { currentRequestId } from '../../src/core/request-context.js';
import { startTracing, stopTracing } from '../../src/observability/tracing.js';
import { createTestApp, type TestApp } from '../support/app.js';
import { ENGINES } from '../support/engines.js';

/** What a route saw of the active span and the request, at some point of its run. */
interface Seen {
  spanId: string | undefined;
  requestId: string | undefined;
}

function seen(): Seen {
  return { spanId: trace.getActiveSpan()?.spanContext().spanId, requestId: currentRequestId() };
}

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * The request and its span share one async context (the SDK's context manager over Tollgate's
 * request store): what user code and child spans see of both, across awaits and concurrent requests.
 */
describe.each(ENGINES)('the request span as the active context (%s)', (engine) => {
  const exporter = new InMemorySpanExporter();
  let t: TestApp;
  let log: Record<string, Seen[]>;

  beforeAll(async () => {
    await startTracing({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
    t = await createTestApp({
      engine,
      setup(app) {
        app.router.get('/seen/:tag', async (c) => {
          const mine = [seen()];
          log[c.req.param('tag') ?? ''] = mine;
          await pause(Number(c.req.query('wait') ?? 0));
          mine.push(seen());
          await sql`select 1`.execute(app.db);
          mine.push(seen());
          return c.text('ok');
        });
        app.router.get('/transaction', async (c) => {
          await app.db.transaction().execute((trx) => sql`select 3`.execute(trx));
          return c.text('ok');
        });
        app.router.get('/nested', async (c) => {
          await trace.getTracer('user').startActiveSpan('user work', async (span) => {
            log.inner = [seen()];
            await sql`select 2`.execute(app.db);
            span.end();
          });
          // A context of the user's own: the span goes, the request stays.
          await context.with(ROOT_CONTEXT, async () => {
            log.root = [seen()];
          });
          log.after = [seen()];
          return c.text('ok');
        });
      },
    });
  });
  afterAll(async () => {
    await t?.close();
    await stopTracing();
  });
  beforeEach(() => {
    exporter.reset();
    log = {};
  });

  const server = (spans: ReadableSpan[], path: string) =>
    spans.find((s) => s.kind === SpanKind.SERVER && s.attributes['url.path'] === path);

  it('a controller’s trace.getActiveSpan() is the request span before and after its awaits, and its query is that span’s child', async () => {
    const res = await t.request('/seen/a');
    expect(res.status).toBe(200);
    const spans = exporter.getFinishedSpans();
    const root = server(spans, '/seen/a')!;
    const id = root.spanContext().spanId;
    expect(log.a).toEqual([
      { spanId: id, requestId: res.headers.get('x-request-id') },
      { spanId: id, requestId: res.headers.get('x-request-id') },
      { spanId: id, requestId: res.headers.get('x-request-id') },
    ]);
    expect(res.headers.get('x-request-id')).toBe(root.spanContext().traceId);
    const query = spans.find((s) => s.name === 'SELECT')!;
    expect(query.kind).toBe(SpanKind.CLIENT);
    expect(query.parentSpanContext?.spanId).toBe(id);
  });

  it('two requests in flight at once each see their own span and id', async () => {
    const [slow, fast] = await Promise.all([t.request('/seen/slow?wait=30'), t.request('/seen/fast')]);
    const spans = exporter.getFinishedSpans();
    for (const [tag, res] of [
      ['slow', slow],
      ['fast', fast],
    ] as const) {
      const id = server(spans, `/seen/${tag}`)!.spanContext().spanId;
      expect(log[tag]!.map((s) => s.spanId)).toEqual([id, id, id]);
      expect(log[tag]!.map((s) => s.requestId)).toEqual(Array(3).fill(res.headers.get('x-request-id')));
    }
    const ids = new Set(spans.filter((s) => s.kind === SpanKind.SERVER).map((s) => s.spanContext().traceId));
    expect(ids.size).toBe(2);
  });

  it('a user’s active span is the parent of what runs inside it; context.with keeps the request', async () => {
    const res = await t.request('/nested');
    const requestId = res.headers.get('x-request-id');
    const spans = exporter.getFinishedSpans();
    const root = server(spans, '/nested')!;
    const user = spans.find((s) => s.name === 'user work')!;
    expect(user.parentSpanContext?.spanId).toBe(root.spanContext().spanId);
    expect(log.inner).toEqual([{ spanId: user.spanContext().spanId, requestId }]);
    expect(spans.find((s) => s.name === 'SELECT')?.parentSpanContext?.spanId).toBe(user.spanContext().spanId);
    expect(log.root).toEqual([{ spanId: undefined, requestId }]);
    expect(log.after).toEqual([{ spanId: root.spanContext().spanId, requestId }]);
  });

  it('a transaction’s statements, BEGIN and COMMIT included, are client spans under the request span, in order', async () => {
    await t.request('/transaction');
    const spans = exporter.getFinishedSpans();
    const root = server(spans, '/transaction')!;
    const statements = spans.filter((s) => s.attributes['db.system.name'] !== undefined);
    expect(statements.map((s) => s.name)).toEqual(['BEGIN', 'SELECT', 'COMMIT']);
    for (const statement of statements) {
      expect(statement.kind).toBe(SpanKind.CLIENT);
      expect(statement.parentSpanContext?.spanId).toBe(root.spanContext().spanId);
    }
  });

  it('outside a request there is no active span and no request', async () => {
    await t.request('/seen/b');
    expect(seen()).toEqual({ spanId: undefined, requestId: undefined });
  });
});
