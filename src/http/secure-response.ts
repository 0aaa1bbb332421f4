import { type OutgoingHttpHeader, type OutgoingHttpHeaders, ServerResponse } from 'node:http';

type HeaderList = OutgoingHttpHeaders | OutgoingHttpHeader[];

/** A Node response that takes headers to write with the status line, as `secureServerResponse`'s do. */
export interface PresetHeaders {
  /** Lower-case names and values in turn; the list is kept as given, not copied. */
  presetHeaders(fields: string[]): void;
  /** The request's id, written as `X-Request-Id` with the status line, replacing the response's own. */
  requestId(id: string): void;
}

/** Whether `outgoing` is a response of `secureServerResponse`'s class. */
export function takesPresetHeaders(outgoing: unknown): outgoing is PresetHeaders {
  return typeof (outgoing as Partial<PresetHeaders> | undefined)?.presetHeaders === 'function';
}

/**
 * Node's response class that adds the default headers (`entries()`, lower-case names, read at the
 * first response) when the status line is written, unless the response sets them itself: `http.createServer({
 * ServerResponse })`, as `listen()` serves. `@hono/node-server` answers with one
 * `writeHead(status, headers)`; here that becomes one `writeHead` with a flat list, the defaults
 * first. Setting them with `setHeader` before the app answers costs about twice as much (each
 * `setHeader` is checked and stored on its own, and the `writeHead` that follows merges into
 * them). When headers were set with `setHeader`, the defaults the response lacks are set that
 * way too. `presetHeaders` adds headers of this response alone (the rate-limit fields) the same way.
 * `requestId` names the request in `X-Request-Id`, over any the response sets: setting it on the
 * Fetch `Response` instead makes `@hono/node-server` build a WHATWG `Headers` for every response
 * and copy it into a header object (about a third of a reused-token request's CPU, issue 35).
 */
export function secureServerResponse(defaults: {
  entries(): readonly (readonly [string, string])[];
}): typeof ServerResponse {
  let entries: readonly (readonly [string, string])[] | undefined;
  let flat: OutgoingHttpHeader[] = [];
  class SecureServerResponse extends ServerResponse implements PresetHeaders {
    /** This response's own preset headers, lower-case names and values in turn. */
    #preset: string[] | undefined;
    #requestId: string | undefined;

    presetHeaders(fields: string[]): void {
      this.#preset = this.#preset === undefined ? fields : this.#preset.concat(fields);
    }

    requestId(id: string): void {
      this.#requestId = id;
    }

    override writeHead(statusCode: number, reason?: string | HeaderList, headers?: HeaderList): this {
      if (entries === undefined) {
        entries = defaults.entries();
        flat = entries.flat();
      }
      const message = typeof reason === 'string' ? reason : undefined;
      const own = message === undefined ? (reason as HeaderList | undefined) : headers;
      const preset = this.#preset;
      const id = this.#requestId;
      if (Array.isArray(own) || this.getHeaderNames().length > 0) {
        for (const [name, value] of entries) if (!this.hasHeader(name)) this.setHeader(name, value);
        for (let i = 0; preset !== undefined && i < preset.length; i += 2)
          if (!this.hasHeader(preset[i]!)) this.setHeader(preset[i]!, preset[i + 1]!);
        if (id === undefined) return super.writeHead(statusCode, message, own);
        this.setHeader('x-request-id', id);
        return super.writeHead(statusCode, message, without(own, 'x-request-id'));
      }
      // Not `flat.concat(preset)`: V8 runs that in its C++ runtime, about 150 ns a response.
      const list = flat.slice();
      for (let i = 0; preset !== undefined && i < preset.length; i++) list.push(preset[i]!);
      for (const name of own === undefined ? [] : Object.keys(own)) {
        // Node refuses an undefined value itself, as it would have without the defaults.
        const value = own![name] as OutgoingHttpHeader;
        const lower = name.toLowerCase();
        if (id !== undefined && lower === 'x-request-id') continue;
        // A header the response sets itself replaces the default or the preset one, in its place.
        const at = indexOfName(list, lower);
        if (at < 0) list.push(name, value);
        else list.splice(at, 2, name, value);
      }
      if (id !== undefined) list.push('x-request-id', id);
      return super.writeHead(statusCode, message, list);
    }
  }
  return SecureServerResponse as typeof ServerResponse;
}

/** `headers` (an object, or a flat list of names and values) without the field `name` (lower-case). */
function without(headers: HeaderList | undefined, name: string): HeaderList | undefined {
  if (headers === undefined) return undefined;
  if (!Array.isArray(headers)) {
    const kept: OutgoingHttpHeaders = {};
    for (const key of Object.keys(headers)) if (key.toLowerCase() !== name) kept[key] = headers[key];
    return kept;
  }
  const kept: OutgoingHttpHeader[] = [];
  for (let i = 0; i < headers.length; i += 2)
    if (String(headers[i]).toLowerCase() !== name) kept.push(headers[i]!, headers[i + 1]!);
  return kept;
}

/** Where a lower-case header name stands in a flat list of lower-case names and values, or −1. */
function indexOfName(list: readonly OutgoingHttpHeader[], name: string): number {
  for (let i = 0; i < list.length; i += 2) if (list[i] === name) return i;
  return -1;
}
