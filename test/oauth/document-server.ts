import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Served {
  status?: number;
  headers?: Record<string, string>;
  body: string;
}

/**
 * A web site serving client metadata documents over real HTTP on loopback: `serve(path, …)` sets
 * what a path answers, `hits(path)` counts the requests it got.
 */
export interface DocumentServer {
  origin: string;
  url(path: string): string;
  serve(path: string, answer: Served | ((url: string) => Served)): void;
  /** Serves `{ client_id: url(path), ...metadata }` as JSON. */
  document(path: string, metadata: Record<string, unknown>, headers?: Record<string, string>): string;
  hits(path: string): number;
  close(): Promise<void>;
}

export async function documentServer(): Promise<DocumentServer> {
  const answers = new Map<string, (url: string) => Served>();
  const counts = new Map<string, number>();
  const server = createServer((req, res: ServerResponse) => {
    const path = req.url ?? '/';
    counts.set(path, (counts.get(path) ?? 0) + 1);
    const answer = answers.get(path);
    const served = answer ? answer(`${origin}${path}`) : { status: 404, body: 'not found' };
    res.writeHead(served.status ?? 200, served.headers ?? { 'content-type': 'application/json' });
    res.end(served.body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    origin,
    url: (path) => `${origin}${path}`,
    serve: (path, answer) => answers.set(path, typeof answer === 'function' ? answer : () => answer),
    document(path, metadata, headers) {
      answers.set(path, (url) => ({
        body: JSON.stringify({ client_id: url, ...metadata }),
        headers: { 'content-type': 'application/json', ...headers },
      }));
      return `${origin}${path}`;
    },
    hits: (path) => counts.get(path) ?? 0,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
