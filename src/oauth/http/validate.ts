import type { Context } from 'hono';
import type { z } from 'zod';
import { ValidationError } from '../../core/errors.js';

/**
 * The JSON body checked against a schema; 422 `{ message, errors: { field: [..] } }` otherwise
 * (DESIGN.md decision 5). A body that is not a JSON object counts as empty.
 */
export async function validateJson<T extends z.ZodType>(c: Context, schema: T): Promise<z.infer<T>> {
  let body: unknown = {};
  try {
    const text = await c.req.text();
    body = text ? JSON.parse(text) : {};
  } catch {
    throw new ValidationError({ body: ['The request body must be valid JSON.'] });
  }
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
