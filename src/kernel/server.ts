import type { AddressInfo } from 'node:net';
import { serve } from '@hono/node-server';
import type { Application } from './application.js';

export interface RunningServer {
  url: string;
  port: number;
  close(): Promise<void>;
}

/**
 * Serves a booted application on host:port (0 picks a free port). Node's responses are of the
 * security headers' own class, which writes them with the status line.
 */
export function listen(app: Application, host: string, port: number): Promise<RunningServer> {
  // A stand-in application (a test's forwarder to one built later) may have no router.
  const serverOptions = { ServerResponse: app.router?.securityHeaders.serverResponse() };
  return new Promise((resolve, reject) => {
    const server = serve({ fetch: app.fetch, hostname: host, port, serverOptions }, (info: AddressInfo) => {
      const url = `http://${host.includes(':') ? `[${host}]` : host}:${info.port}`;
      resolve({
        url,
        port: info.port,
        // Stop accepting, let in-flight requests finish, then drop idle keep-alive sockets.
        close: () =>
          new Promise<void>((done) => {
            server.close(() => done());
            if ('closeIdleConnections' in server) server.closeIdleConnections();
          }),
      });
    });
    server.once('error', reject);
  });
}

/** Closes the server, then the application, on SIGTERM/SIGINT. */
export function closeOnSignals(app: Application, server: RunningServer): void {
  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    app.logger.info({ signal }, 'shutting down');
    await server.close();
    await app.close();
    process.exit(0);
  };
  process.once('SIGTERM', () => void stop('SIGTERM'));
  process.once('SIGINT', () => void stop('SIGINT'));
}
