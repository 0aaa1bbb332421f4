import { personalAccessTokenSchema } from '../http/schemas.js';
import { validateBody } from '../http/validate.js';
import type { Scopes } from '../scopes.js';

/**
 * A new personal access token's name and scopes, from a form's fields (`scopes` absent, one value
 * or several); a 422 `ValidationError` with the field's message otherwise.
 */
export function personalTokenInput(
  scopes: Scopes,
  form: Record<string, unknown>,
): { name: string; scopes: string[]; expires_in_days?: number | null | undefined } {
  const list = form.scopes;
  const days = form.expires_in_days;
  return validateBody(personalAccessTokenSchema(scopes), {
    name: form.name,
    scopes: list === undefined ? [] : Array.isArray(list) ? list : [list],
    // A form's select sends a string; empty means the default lifetime.
    expires_in_days: days === undefined || days === '' ? null : Number(days),
  });
}
