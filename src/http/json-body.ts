import type { Context } from 'hono';
import { ValidationError } from '../core/errors.js';

/** The request's JSON body (`{}` when empty); a 422 when it is not JSON. */
export async function jsonBody(c: Context): Promise<unknown> {
  try {
    const text = await c.req.text();
    return text ? JSON.parse(text) : {};
  } catch {
    throw new ValidationError({ body: ['The request body must be valid JSON.'] });
  }
}
