import type { AddressInfo } from 'node:net';
import { serve } from '@hono/node-server';
import { defaultHttpTimeouts, type HttpTimeouts } from '../http/config.js';
import type { Application } from './application.js';

export interface RunningServer {
  url: string;
  port: number;
  /**
   * Stops accepting and closes idle connections; requests in flight get `graceMs` (default: the
   * configured `shutdownGraceMs`) to finish, then every connection still open is closed.
   */
  close(graceMs?: number): Promise<void>;
}

/** How long flushing may take after the grace period before the process exits anyway. */
const FLUSH_LIMIT_MS = 5_000;

/**
 * Serves a booted application on host:port (0 picks a free port), with the configured HTTP
 * timeouts (`http.timeouts`). Node's responses are of the security headers' own class, which
 * writes them with the status line.
 */
export function listen(app: Application, host: string, port: number): Promise<RunningServer> {
  // A stand-in application (a test's forwarder to one built later) may have no router or config.
  const timeouts: HttpTimeouts = app.config?.http.timeouts ?? defaultHttpTimeouts;
  const serverOptions = {
    ServerResponse: app.router?.securityHeaders.serverResponse(),
    headersTimeout: timeouts.headersMs,
    requestTimeout: timeouts.requestMs,
    keepAliveTimeout: timeouts.keepAliveMs,
    // Node checks the two timeouts above only this often (30 s by default).
    connectionsCheckingInterval: Math.min(1_000, timeouts.headersMs),
  };
  return new Promise((resolve, reject) => {
    const server = serve({ fetch: app.fetch, hostname: host, port, serverOptions }, (info: AddressInfo) => {
      const url = `http://${host.includes(':') ? `[${host}]` : host}:${info.port}`;
      resolve({
        url,
        port: info.port,
        close: (graceMs = timeouts.shutdownGraceMs) =>
          new Promise<void>((done) => {
            const deadline = setTimeout(() => {
              if ('closeAllConnections' in server) server.closeAllConnections();
            }, graceMs);
            server.close(() => {
              clearTimeout(deadline);
              done();
            });
            if ('closeIdleConnections' in server) server.closeIdleConnections();
          }),
      });
    });
    server.once('error', reject);
  });
}

/**
 * On SIGTERM/SIGINT: `/ready` answers 503 from then on; after `http.timeouts.drainMs` of serving
 * (a load balancer's time to notice), stops accepting, lets requests in flight finish within the grace period,
 * closes the connections left (keep-alive, slow clients), then closes the application — which
 * hands back rate-limit leases and flushes the metering and last-used buffers — and exits.
 */
export function closeOnSignals(app: Application, server: RunningServer): void {
  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    const { shutdownGraceMs: graceMs, drainMs } = app.config.http.timeouts;
    const started = performance.now();
    app.logger.info({ signal, graceMs, drainMs }, 'shutting down');
    app.readiness.drain();
    // Never outlive the orchestrator's patience: exit even if a flush hangs.
    setTimeout(
      () => {
        app.logger.error('shutdown did not finish in time: exiting anyway');
        process.exit(1);
      },
      drainMs + graceMs + FLUSH_LIMIT_MS,
    ).unref();
    if (drainMs > 0) await new Promise((resolve) => setTimeout(resolve, drainMs));
    await server.close(graceMs);
    try {
      await app.close();
    } catch (err) {
      app.logger.error({ err }, 'shutdown: closing the application failed');
      process.exit(1);
    }
    app.logger.info({ ms: Math.round(performance.now() - started) }, 'shut down: buffers flushed');
    process.exit(0);
  };
  process.once('SIGTERM', () => void stop('SIGTERM'));
  process.once('SIGINT', () => void stop('SIGINT'));
}
