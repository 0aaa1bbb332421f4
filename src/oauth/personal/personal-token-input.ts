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
): { name: string; scopes: string[] } {
  const list = form.scopes;
  return validateBody(personalAccessTokenSchema(scopes), {
    name: form.name,
    scopes: list === undefined ? [] : Array.isArray(list) ? list : [list],
  });
}
