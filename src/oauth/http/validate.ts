import type { Context } from 'hono';
import type { z } from 'zod';
import { ValidationError } from '../../core/errors.js';

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

/** A request body (JSON or form fields) checked against a schema; 422 with field messages otherwise. */
export function validateBody<T extends z.ZodType>(schema: T, body: unknown): z.infer<T> {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) body = {};
  const parsed = schema.safeParse(body);
  if (parsed.success) return parsed.data;
  const errors: Record<string, string[]> = {};
  for (const issue of parsed.error.issues) {
    const field = String(issue.path[0] ?? 'body');
    errors[field] = [...(errors[field] ?? []), issue.message];
  }
  throw new ValidationError(errors);
}
