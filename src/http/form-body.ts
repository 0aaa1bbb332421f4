import type { Context } from 'hono';
import { jsonBody } from './json-body.js';

/**
 * A form's fields from a JSON body (`Content-Type: application/json`) or a URL-encoded/multipart
 * form, so a page's form and a JSON client post to one route. A JSON body that is not an object has
 * no fields; one that does not parse is a 422 (`errors.body`).
 */
export async function formBody(c: Context): Promise<Record<string, unknown>> {
  if (!(c.req.header('content-type') ?? '').includes('application/json')) return c.req.parseBody();
  const body = await jsonBody(c);
  return typeof body === 'object' && body !== null && !Array.isArray(body)
    ? (body as Record<string, unknown>)
    : {};
}
