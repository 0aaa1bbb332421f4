import { type ClientExtras, NO_EXTRAS } from '../clients/client-metadata-store.js';
import { OAuthError } from '../errors.js';
import { clientUrlProblem } from './client-url.js';

const PAGES = [
  ['logo_uri', 'logoUri'],
  ['policy_uri', 'policyUri'],
  ['tos_uri', 'tosUri'],
] as const;

/**
 * The registration's `logo_uri`, `policy_uri` and `tos_uri` (RFC 7591 §2: shown to the user),
 * each by `clientUrlProblem`'s rules, or `invalid_client_metadata`.
 */
export function checkClientExtras(input: Readonly<Record<string, unknown>>): ClientExtras {
  const extras: ClientExtras = { ...NO_EXTRAS };
  for (const [field, key] of PAGES) {
    const value = input[field];
    if (value === undefined) continue;
    const problem = clientUrlProblem(value, field);
    if (problem) throw OAuthError.invalidClientMetadata(problem);
    extras[key] = value as string;
  }
  return extras;
}

/** The extras as registration response fields (RFC 7591 §3.2.1: the registered metadata). */
export function extrasResponse(extras: ClientExtras): Record<string, unknown> {
  const fields: Record<string, unknown> = {};
  for (const [field, key] of PAGES) if (extras[key] !== null) fields[field] = extras[key];
  return fields;
}
