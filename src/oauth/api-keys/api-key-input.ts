import { apiKeySchema } from '../http/schemas.js';
import { validateBody } from '../http/validate.js';
import type { Scopes } from '../scopes.js';
import type { NewApiKeyInput } from './api-keys.js';

/**
 * A new key's fields, from the JSON API's body or a form's (strings: an empty number field is
 * none, `scopes` one value or several); a 422 `ValidationError` with the field's message otherwise.
 */
export function apiKeyInput(scopes: Scopes, body: unknown, fromForm = false): NewApiKeyInput {
  const fields = fromForm ? formFields(body as Record<string, unknown>) : body;
  const input = validateBody(apiKeySchema(scopes), fields);
  return {
    name: input.name,
    scopes: input.scopes,
    expiresInDays: input.expires_in_days,
    rateLimitPerMinute: input.rate_limit_per_minute,
  };
}

function formFields(form: Record<string, unknown>): Record<string, unknown> {
  const number = (value: unknown) => {
    if (typeof value !== 'string' || value.trim() === '') return undefined;
    return /^\s*-?\d+(\.\d+)?\s*$/.test(value) ? Number(value) : value;
  };
  const scopes = form.scopes;
  return {
    name: form.name,
    scopes: scopes === undefined ? [] : Array.isArray(scopes) ? scopes : [scopes],
    expires_in_days: number(form.expires_in_days),
    rate_limit_per_minute: number(form.rate_limit_per_minute),
  };
}
