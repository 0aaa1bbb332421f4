import type { Context } from 'hono';

/** A controller's return value as a response: Response as is, string as HTML, anything else as JSON. */
export function toResponse(c: Context, value: unknown): Response {
  if (value instanceof Response) return value;
  if (value === undefined || value === null) return c.body(null, 204);
  if (typeof value === 'string') return c.html(value);
  return c.json(value as object);
}

/** Whether the client asked for JSON (API clients, fetch from the frontend) rather than a page. */
export function wantsJson(c: Context): boolean {
  return requestWantsJson(c.req.raw.headers);
}

/** `wantsJson` from the request headers alone, for answers given before routing. */
export function requestWantsJson(headers: Headers): boolean {
  return (
    (headers.get('accept') ?? '').includes('application/json') ||
    headers.get('x-requested-with') === 'XMLHttpRequest' ||
    (headers.get('content-type') ?? '').includes('application/json')
  );
}
