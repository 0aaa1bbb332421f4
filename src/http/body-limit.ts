import { TrieRouter } from 'hono/router/trie-router';
import { ConfigurationError } from '../core/errors.js';
import type { BodyLimitKind, BodyLimits } from './config.js';
import { errorPage } from './error-handler.js';
import { requestWantsJson } from './respond.js';
import { type Route, toHonoPath } from './route.js';

const FORM = /^\s*(?:application\/x-www-form-urlencoded|multipart\/form-data)/i;

/** `/path` of an absolute request URL, without its query. */
function pathOf(url: string): string {
  const start = url.indexOf('/', url.indexOf('//') + 2);
  if (start < 0) return '/';
  const query = url.indexOf('?', start);
  return query < 0 ? url.slice(start) : url.slice(start, query);
}

/**
 * Which limit a request's body gets, decided before routing (method spoofing reads form bodies
 * before the router runs): the kind its route declared, else `forms` for a URL-encoded or
 * multipart body, else `default`. A path no route declares, unknown paths included, still gets one.
 */
export class BodyLimitTable {
  readonly #declared = new TrieRouter<BodyLimitKind>();
  #hasDeclared = false;

  constructor(
    readonly limits: BodyLimits,
    routes: readonly Route[],
  ) {
    for (const [kind, bytes] of Object.entries(limits)) {
      if (!Number.isSafeInteger(bytes) || bytes < 0)
        throw new ConfigurationError(`http.bodyLimits.${kind} must be a whole number of bytes.`);
    }
    for (const route of routes) {
      const kind = route.bodyLimitKind;
      if (!kind) continue;
      if (!(kind in limits))
        throw new ConfigurationError(
          `Unknown body limit "${kind}" (${route.describe()}); use one of: ${Object.keys(limits).join(', ')}.`,
        );
      this.#declared.add('ALL', toHonoPath(route.path, route.wheres), kind);
      this.#hasDeclared = true;
    }
  }

  kindOf(request: Request): BodyLimitKind {
    if (this.#hasDeclared) {
      const declared = this.#declared.match(request.method, pathOf(request.url))[0][0];
      if (declared) return declared[0];
    }
    return FORM.test(request.headers.get('content-type') ?? '') ? 'forms' : 'default';
  }
}

/** What is read and dropped of a refused chunked body, so the client can read the 413, before the stream is cancelled. */
const DISCARD_BYTES = 64 * 1024 * 1024;
const DISCARD_MS = 1_000;

async function discard(reader: ReadableStreamDefaultReader<Uint8Array>): Promise<void> {
  const until = performance.now() + DISCARD_MS;
  let dropped = 0;
  try {
    while (dropped < DISCARD_BYTES && performance.now() < until) {
      const { done, value } = await reader.read();
      if (done) return;
      dropped += value.byteLength;
    }
    await reader.cancel();
  } catch {
    // The client went away: nothing left to drop.
  }
}

/**
 * The request with its body within `limit` bytes, or `undefined` when it is larger. A declared
 * Content-Length decides before a byte is read (Node's parser never delivers more than that); a
 * chunked body is read while counting, and kept only up to the limit. What the client still sends
 * is read and dropped — never buffered — so it can read the answer (as @hono/node-server does).
 */
export async function withinLimit(request: Request, limit: number): Promise<Request | undefined> {
  const headers = request.headers;
  const length = headers.get('content-length');
  if (length !== null && !headers.has('transfer-encoding')) {
    return Number(length) <= limit ? request : undefined;
  }
  const body = request.body;
  if (!body) return request;
  const reader = body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > limit) {
      // Not cancel() at once: on Node that destroys the socket before the 413 is written.
      void discard(reader);
      return undefined;
    }
    chunks.push(value);
  }
  const { url, method, signal } = request;
  return new Request(url, { method, headers, signal, body: Buffer.concat(chunks) });
}

/** 413, in the shape the client reads: RFC 6749 §5.2 JSON on the OAuth endpoints, JSON or a page elsewhere. */
export function payloadTooLarge(request: Request, kind: BodyLimitKind, limit: number): Response {
  const message = `The request body is too large: this endpoint accepts at most ${limit} bytes.`;
  return entryError(request, kind, 413, 'The request body is too large.', message);
}

/** 400 for a body that could not be read (the client went away, a malformed multipart form). */
export function unreadableBody(request: Request, kind: BodyLimitKind): Response {
  const message = 'The request body could not be read.';
  return entryError(request, kind, 400, message, message);
}

function entryError(
  request: Request,
  kind: BodyLimitKind,
  status: number,
  description: string,
  message: string,
): Response {
  if (kind === 'oauth') {
    return Response.json({ error: 'invalid_request', error_description: description }, { status });
  }
  if (requestWantsJson(request.headers)) return Response.json({ message }, { status });
  return new Response(errorPage(status, message), {
    status,
    headers: { 'content-type': 'text/html; charset=UTF-8' },
  });
}
