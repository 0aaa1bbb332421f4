import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Application } from '../kernel/application.js';
import { Metrics } from './metrics.js';

/**
 * `METRICS_PORT`: `/metrics` on 127.0.0.1 without a token, for a scraper on the same host (a
 * sidecar), so the public port needs none. Resolves with the port and a `close`.
 */
export function serveMetrics(
  metrics: Metrics,
  port: number,
): Promise<{ port: number; close(): Promise<void> }> {
  const server = createServer((req, res) => {
    if (req.method !== 'GET' || req.url?.split('?')[0] !== '/metrics') {
      res.writeHead(404).end();
      return;
    }
    metrics.exposition().then(
      ({ contentType, body }) => res.writeHead(200, { 'Content-Type': contentType }).end(body),
      () => res.writeHead(500).end(),
    );
  });
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => {
      resolve({
        port: (server.address() as AddressInfo).port,
        close: () => new Promise<void>((done) => server.close(() => done())),
      });
    });
  });
}

/**
 * Starts the `METRICS_PORT` listener when one is configured (closed with the application). The
 * server's start calls it after `listen()`, never `boot()`: commands that boot the application
 * (`route:list`) must not take the port of the running service.
 */
export async function listenForMetrics(app: Application): Promise<number | undefined> {
  const { port } = app.config.observability.metrics;
  if (!port || !app.container.has(Metrics)) return undefined;
  const server = await serveMetrics(app.container.make(Metrics), port);
  app.onClose(() => server.close());
  app.logger.info({ port: server.port }, 'metrics on 127.0.0.1');
  return server.port;
}
