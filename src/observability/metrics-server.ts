import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Metrics } from './metrics.js';

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
