import type { z } from 'zod';
import { ValidationError } from './errors.js';

/** `expires_in_days` → `expires in days`, as Laravel names an attribute in its messages. */
export function attributeName(field: PropertyKey | undefined): string {
  return String(field ?? 'body').replace(/_/g, ' ');
}

const TYPE_NAMES: Record<string, string> = {
  string: 'a string',
  number: 'a number',
  int: 'an integer',
  boolean: 'true or false',
  array: 'an array',
  object: 'an object',
};

/**
 * Laravel's wording for what a schema did not word itself ("The name field is required.", "The
 * scopes field must be an array.") instead of zod's ("Invalid input: expected string, received
 * undefined"). Messages a schema gives win over these (zod's precedence).
 */
export const laravelMessages: z.core.$ZodErrorMap = (issue) => {
  const field = `The ${attributeName(issue.path?.[0])}`;
  switch (issue.code) {
    case 'invalid_type':
      if (issue.input === undefined || issue.input === null) return `${field} field is required.`;
      return `${field} field must be ${TYPE_NAMES[issue.expected] ?? `a valid ${issue.expected}`}.`;
    case 'too_small':
      if (issue.origin === 'string')
        return issue.minimum === 1
          ? `${field} field is required.`
          : `${field} field must be at least ${issue.minimum} characters.`;
      if (issue.origin === 'array') return `${field} field must have at least ${issue.minimum} items.`;
      return `${field} field must be at least ${issue.minimum}.`;
    case 'too_big':
      if (issue.origin === 'string')
        return `${field} field must not be greater than ${issue.maximum} characters.`;
      if (issue.origin === 'array') return `${field} field must not have more than ${issue.maximum} items.`;
      return `${field} field must not be greater than ${issue.maximum}.`;
    case 'invalid_format':
      if (issue.format === 'email') return `${field} field must be a valid email address.`;
      if (issue.format === 'url') return `${field} field must be a valid URL.`;
      return `${field} field format is invalid.`;
    case 'invalid_value':
      return `The selected ${attributeName(issue.path?.[0])} is invalid.`;
    case 'unrecognized_keys':
      return `The ${issue.keys.join(', ')} field${issue.keys.length > 1 ? 's are' : ' is'} not allowed.`;
    default:
      return `${field} field is invalid.`;
  }
};

/** zod issues as Laravel's `{ field: [messages] }`; an issue about the whole body goes under `body`. */
export function fieldErrors(error: z.ZodError): Record<string, string[]> {
  const errors: Record<string, string[]> = {};
  for (const issue of error.issues) {
    const field = String(issue.path[0] ?? 'body');
    errors[field] = [...(errors[field] ?? []), issue.message];
  }
  return errors;
}

/**
 * `body` checked against `schema` with Laravel's messages; a 422 `ValidationError` otherwise
 * (`{ message: "The name field is required.", errors: { name: [...] } }`).
 *
 * @example
 * const input = validate(z.object({ item: z.string().trim().min(1) }), await c.req.json());
 */
export function validate<T extends z.ZodType>(schema: T, body: unknown): z.infer<T> {
  const parsed = schema.safeParse(body, { error: laravelMessages });
  if (parsed.success) return parsed.data;
  throw new ValidationError(fieldErrors(parsed.error));
}
