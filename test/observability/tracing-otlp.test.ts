import { createServer, type Server } from 'node:http';
import { trace } from '@opentelemetry/api';
import { afterAll, describe, expect, it } from 'vitest';
import { tracingEnabled } from '../../src/core/tracing.js';
import { observabilityProvider } from '../../src/observability/provider.js';
import { stopTracing } from '../../src/observability/tracing.js';
import { createTestApp } from '../support/app.js';
import { ANY_ENGINE } from '../support/engines.js';

// Both tests change the process's one tracer provider: the first runs before the second registers it.
describe('OTLP export', () => {
  const received: { path: string; body: string }[] = [];
  let collector: Server | undefined;
  afterAll(async () => {
    await stopTracing();
    await new Promise((done) => (collector ? collector.close(done) : done(undefined)));
  });

  it('is off without OTEL_EXPORTER_OTLP_ENDPOINT: no provider registered, no span recorded', async () => {
    delete process.env.OTEL_EXPORTER_OTLP_ENDPOINT;
    delete process.env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT;
    const t = await createTestApp({ engine: ANY_ENGINE, providers: [observabilityProvider()] });
    try {
      expect((await t.request('/ready')).status).toBe(200);
      expect(tracingEnabled()).toBe(false);
      expect(trace.getTracer('probe').startSpan('probe').isRecording()).toBe(false);
    } finally {
      await t.close();
    }
  });

  it('with the endpoint set, the request’s span reaches the collector by the time the application closed', async () => {
    collector = createServer((req, res) => {
      let body = '';
      req.on('data', (chunk) => (body += chunk));
      req.on('end', () => {
        received.push({ path: req.url ?? '', body });
        res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
      });
    });
    await new Promise<void>((done) => collector!.listen(0, '127.0.0.1', done));
    const { port } = collector.address() as { port: number };
    // The setup file puts process.env back after this file.
    process.env.OTEL_EXPORTER_OTLP_ENDPOINT = `http://127.0.0.1:${port}`;
    process.env.OTEL_SERVICE_NAME = 'tollgate-under-test';
    const t = await createTestApp({ engine: ANY_ENGINE, providers: [observabilityProvider()] });
    const res = await t.request('/ready');
    const traceId = res.headers.get('x-request-id')!;
    expect(traceId).toMatch(/^[0-9a-f]{32}$/);
    await t.close();
    const exported = received.filter((r) => r.path === '/v1/traces').map((r) => r.body);
    expect(exported.join('')).toContain(traceId);
    expect(exported.join('')).toContain('tollgate-under-test');
  });
});
