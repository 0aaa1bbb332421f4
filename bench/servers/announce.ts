import type { ServerOptions } from 'node:http';
import type { AddressInfo } from 'node:net';
import { serve } from '@hono/node-server';
import type { Hono } from 'hono';
import { READY, RESULT, type ReadyMessage, type ResultMessage } from '../lib/protocol.js';

/**
 * Exit cleanly on SIGTERM: `--cpu-prof` only writes its profile on a normal exit, and the runner
 * stops every child with SIGTERM.
 */
export function exitOnSigterm(cleanup?: () => Promise<void> | void): void {
  process.once('SIGTERM', async () => {
    try {
      await cleanup?.();
    } finally {
      process.exit(0);
    }
  });
}

/**
 * Tells the runner the server is ready, then collects the set-up garbage (with `--expose-gc`, as
 * the runner starts servers) before the runner starts counting peak RSS.
 */
export function announce(message: ReadyMessage): void {
  process.stdout.write(`${READY}${JSON.stringify(message)}\n`, () => {
    setImmediate(() => (globalThis as { gc?: () => void }).gc?.());
  });
}

export function report(message: ResultMessage): void {
  process.stdout.write(`${RESULT}${JSON.stringify(message)}\n`);
}

/** Serves a Hono app on a free loopback port and announces it. */
export function serveHono(
  app: Hono,
  fixtures?: Record<string, unknown>,
  serverOptions?: ServerOptions,
): void {
  const options = {
    fetch: app.fetch,
    hostname: '127.0.0.1',
    port: 0,
    ...(serverOptions ? { serverOptions } : {}),
  };
  const server = serve(options, (info: AddressInfo) => announce({ port: info.port, fixtures }));
  // Keep-alive sockets from the load generator would hold `close()` open; exiting is enough.
  exitOnSigterm(() => {
    server.close();
  });
}
