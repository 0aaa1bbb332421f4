import { z } from 'zod';
import { hasControlCharacters } from '../core/text.js';
import { fieldErrors, laravelMessages } from '../core/validation.js';

export { fieldErrors } from '../core/validation.js';

const email = z
  .string()
  .trim()
  .toLowerCase()
  .min(1, 'The email field is required.')
  .max(255, 'The email field must not be greater than 255 characters.')
  .pipe(z.email('The email field must be a valid email address.'));

export const loginSchema = z.object({
  email,
  password: z
    .string()
    .min(1, 'The password field is required.')
    .max(1024, 'The password field must not be greater than 1024 characters.'),
});

export const registerSchema = z.object({
  name: z
    .string()
    .trim()
    .min(1, 'The name field is required.')
    .max(255, 'The name field must not be greater than 255 characters.')
    .refine((name) => !hasControlCharacters(name), 'The name field must not contain control characters.'),
  email,
  password: z
    .string()
    .min(8, 'The password field must be at least 8 characters.')
    .max(1024, 'The password field must not be greater than 1024 characters.'),
});

export type Registration = z.infer<typeof registerSchema>;

/**
 * The registration form, every problem at once: zod skips an object's refinements while a field is
 * invalid, so the confirmation is checked here rather than with `.refine()`.
 */
export function validateRegistration(
  input: Record<string, string>,
): { data: Registration; errors?: undefined } | { data?: undefined; errors: Record<string, string[]> } {
  const parsed = registerSchema.safeParse(input, { error: laravelMessages });
  const errors = parsed.success ? {} : fieldErrors(parsed.error);
  if (input.password !== input.password_confirmation) {
    errors.password = [...(errors.password ?? []), 'The password field confirmation does not match.'];
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
