import type { Context } from 'hono';
import type { z } from 'zod';
import { ValidationError } from '../../core/errors.js';
import { validate } from '../../core/validation.js';

/**
 * The JSON body checked against a schema; 422 `{ message, errors: { field: [..] } }` otherwise
 * (DESIGN.md decision 5). A body that is not a JSON object counts as empty.
 */
export async function validateJson<T extends z.ZodType>(c: Context, schema: T): Promise<z.infer<T>> {
  return validateBody(schema, await jsonBody(c));
}

/** The request's JSON body (`{}` when empty); a 422 when it is not JSON. */
export async function jsonBody(c: Context): Promise<unknown> {
  try {
    const text = await c.req.text();
    return text ? JSON.parse(text) : {};
  } catch {
    throw new ValidationError({ body: ['The request body must be valid JSON.'] });
  }
}

/**
 * A request body (JSON or form fields) checked against a schema; 422 with Laravel's field messages
 * otherwise. A body that is not an object counts as empty.
 */
export function validateBody<T extends z.ZodType>(schema: T, body: unknown): z.infer<T> {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) body = {};
  return validate(schema, body);
}
