import { z } from 'zod';
import { hasControlCharacters } from '../core/text.js';

const email = z
  .string()
  .trim()
  .toLowerCase()
  .min(1, 'The email field is required.')
  .max(255, 'The email may not be greater than 255 characters.')
  .pipe(z.email('The email must be a valid email address.'));

export const loginSchema = z.object({
  email,
  password: z
    .string()
    .min(1, 'The password field is required.')
    .max(1024, 'The password may not be greater than 1024 characters.'),
});

export const registerSchema = z.object({
  name: z
    .string()
    .trim()
    .min(1, 'The name field is required.')
    .max(255, 'The name may not be greater than 255 characters.')
    .refine((name) => !hasControlCharacters(name), 'The name may not contain control characters.'),
  email,
  password: z
    .string()
    .min(8, 'The password must be at least 8 characters.')
    .max(1024, 'The password may not be greater than 1024 characters.'),
});

export type Registration = z.infer<typeof registerSchema>;

/**
 * The registration form, every problem at once: zod skips an object's refinements while a field is
 * invalid, so the confirmation is checked here rather than with `.refine()`.
 */
export function validateRegistration(
  input: Record<string, string>,
): { data: Registration; errors?: undefined } | { data?: undefined; errors: Record<string, string[]> } {
  const parsed = registerSchema.safeParse(input);
  const errors = parsed.success ? {} : fieldErrors(parsed.error);
  if (input.password !== input.password_confirmation) {
    errors.password = [...(errors.password ?? []), 'The password confirmation does not match.'];
  }
  return parsed.success && Object.keys(errors).length === 0 ? { data: parsed.data } : { errors };
}

/** A form body's text fields (files and repeated fields are not part of these forms). */
export function formFields(body: Record<string, unknown>, names: readonly string[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (const name of names) {
    const value = body[name];
    out[name] = typeof value === 'string' ? value : '';
  }
  return out;
}

/** zod issues as Laravel's `{ field: [messages] }`. */
export function fieldErrors(error: z.ZodError): Record<string, string[]> {
  const errors: Record<string, string[]> = {};
  for (const issue of error.issues) {
    const field = String(issue.path[0] ?? 'form');
    errors[field] = [...(errors[field] ?? []), issue.message];
  }
  return errors;
}
