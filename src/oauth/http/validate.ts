import type { Context } from 'hono';
import type { z } from 'zod';
import { validate } from '../../core/validation.js';
import { jsonBody } from '../../http/json-body.js';

/**
 * The JSON body checked against a schema; 422 `{ message, errors: { field: [..] } }` otherwise
 * (DESIGN.md decision 5). A body that is not a JSON object counts as empty.
 */
export async function validateJson<T extends z.ZodType>(c: Context, schema: T): Promise<z.infer<T>> {
  return validateBody(schema, await jsonBody(c));
}

/**
 * A request body (JSON or form fields) checked against a schema; 422 with Laravel's field messages
 * otherwise. A body that is not an object counts as empty.
 */
export function validateBody<T extends z.ZodType>(schema: T, body: unknown): z.infer<T> {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) body = {};
  return validate(schema, body);
}
