import type { Server } from 'node:http';
import { serve } from '@hono/node-server';

/** A sandbox listening on a real socket. */
export interface ListeningSandbox {
  /** `http://host:port`, to give the SDK as its host and port. */
  url: string;
  host: string;
  port: number;
  /** Stops listening and drops open connections (the SDKs keep them alive). */
  close(): Promise<void>;
}

/** Serves a sandbox's `fetch` on `host:port` (port 0: any free port). */
export function listen(
  fetch: (request: Request) => Response | Promise<Response>,
  port = 0,
  host = '127.0.0.1',
): Promise<ListeningSandbox> {
  return new Promise((resolve) => {
    const server = serve({ fetch, port, hostname: host }, (info) => {
      resolve({
        url: `http://${host}:${info.port}`,
        host,
        port: info.port,
        close: () =>
          new Promise<void>((done, fail) => {
            (server as Server).closeAllConnections?.();
            server.close((error) => (error ? fail(error) : done()));
          }),
      });
    });
  });
}
