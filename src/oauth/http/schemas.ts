import { z } from 'zod';
import { isValidRedirect } from '../rules/check-redirect-uri.js';
import { ALL_SCOPES, type Scopes } from '../scopes.js';

const name = z
  .string({ error: 'The name field is required.' })
  .trim()
  .min(1, 'The name field is required.')
  .max(255, 'The name may not be greater than 255 characters.');

/** `POST/PUT /oauth/clients`: the redirect is one absolute http(s) URL, or several separated by commas. */
export const clientSchema = z.object({
  name,
  redirect: z
    .string({ error: 'The redirect field is required.' })
    .trim()
    .min(1, 'The redirect field is required.')
    .refine(
      (value) => value.split(',').every((uri) => isValidRedirect(uri.trim())),
      'The redirect must be an absolute http or https URL.',
    ),
  confidential: z.boolean({ error: 'The confidential field must be true or false.' }).optional(),
});

/** `POST /oauth/personal-access-tokens`: scopes must be defined by the application, and not `*`. */
export function personalAccessTokenSchema(scopes: Scopes) {
  return z.object({
    name,
    scopes: z
      .array(z.string({ error: 'Each scope must be a string.' }), {
        error: 'The scopes field must be an array.',
      })
      .refine(
        (list) => list.every((scope) => scope !== ALL_SCOPES && scopes.has(scope)),
        'The scopes must be scopes this application defines.',
      ),
  });
}
