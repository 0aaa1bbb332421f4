import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One request as the proxy saw it. */
export interface ProxiedRequest {
  method: string;
  path: string;
}

export interface FaultProxyHooks {
  /**
   * Before the request goes on: `'drop'` ends the connection, `'unavailable'` answers 503 (the
   * upstream down behind its load balancer); either way the upstream never sees it.
   */
  before?(
    request: ProxiedRequest,
  ): Promise<undefined | 'drop' | 'unavailable'> | undefined | 'drop' | 'unavailable';
  /** After the upstream answered: `'drop'` ends the connection, and the answer is lost. */
  after?(request: ProxiedRequest): Promise<undefined | 'drop'> | undefined | 'drop';
}

export interface FaultProxy {
  url: string;
  hooks: FaultProxyHooks;
  close(): Promise<void>;
}

async function bodyOf(request: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

/**
 * An HTTP proxy in front of `upstream` (a sandbox in another process) that can lose a request, or
 * its answer, at the moment a test chooses: a network fault, or a client killed mid-call.
 */
export async function startFaultProxy(upstream: string): Promise<FaultProxy> {
  const proxy: FaultProxy = { url: '', hooks: {}, close: async () => undefined };
  const server = createServer(async (req, res) => {
    const request = { method: req.method ?? 'GET', path: req.url ?? '/' };
    const drop = () => void res.socket?.destroy();
    try {
      const body = await bodyOf(req);
      const fault = await proxy.hooks.before?.(request);
      if (fault === 'drop') return drop();
      if (fault === 'unavailable') {
        res.writeHead(503, { 'content-type': 'application/json' });
        return void res.end(JSON.stringify({ error: { message: 'Service Unavailable' } }));
      }
      const headers = Object.fromEntries(
        Object.entries(req.headers).filter(
          ([name]) => !['host', 'connection', 'content-length'].includes(name),
        ),
      ) as Record<string, string>;
      const answer = await fetch(new URL(request.path, upstream), {
        method: request.method,
        headers,
        body: ['GET', 'HEAD'].includes(request.method) ? undefined : new Uint8Array(body),
      });
      const text = Buffer.from(await answer.arrayBuffer());
      if ((await proxy.hooks.after?.(request)) === 'drop') return drop();
      res.writeHead(answer.status, {
        'content-type': answer.headers.get('content-type') ?? 'application/json',
      });
      res.end(text);
    } catch {
      drop();
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  proxy.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  proxy.close = () =>
    new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    });
  return proxy;
}
