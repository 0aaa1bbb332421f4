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
  const accept = c.req.header('accept') ?? '';
  return (
    accept.includes('application/json') ||
    c.req.header('x-requested-with') === 'XMLHttpRequest' ||
    (c.req.header('content-type') ?? '').includes('application/json')
  );
}
