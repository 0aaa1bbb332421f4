import { OAuthError } from '../errors.js';
import { promptValues } from './consent.js';

/** The OpenID Connect parameters of an authorization request (Core §3.1.2.1). */
export interface OpenIdParameters {
  /** Echoed in the ID token, binding it to the client's session. */
  nonce: string | null;
  /** The oldest login, in seconds, the client accepts; older sends the user to log in again. */
  maxAge: number | null;
  /** `none`, `login`, `consent` (others, such as `select_account`, are ignored). */
  prompt: string[];
  /** `acr_values`, in the client's order of preference; absent in requests kept from before. */
  acrValues?: string[];
}

const PROMPTS = new Set(['none', 'login', 'consent']);
/** Printable ASCII: the nonce is stored and sent back as is. */
const NONCE = /^[\x20-\x7e]{1,512}$/;
const MAX_AGE = /^\d{1,9}$/;
const ACR_VALUE = /^[\x21-\x7e]{1,255}$/;

const invalid = (description: string) => OAuthError.invalidRequest(description, { redirectable: true });

/**
 * Checks `nonce`, `max_age` and `prompt` (sent back to the client as `invalid_request`): a nonce
 * of at most 512 printable characters, a `max_age` of whole seconds, and `none` alone (§3.1.2.1).
 */
export function checkOpenIdParameters(query: Readonly<Record<string, string | undefined>>): OpenIdParameters {
  const { nonce, max_age: maxAge } = query;
  if (nonce !== undefined && !NONCE.test(nonce))
    throw invalid('The nonce must be 1 to 512 printable characters.');
  if (maxAge !== undefined && !MAX_AGE.test(maxAge))
    throw invalid('The max_age parameter must be a number of seconds.');
  const prompt = promptValues(query.prompt).filter((value) => PROMPTS.has(value));
  if (prompt.includes('none') && promptValues(query.prompt).length > 1)
    throw invalid('The prompt value none cannot be combined with another value.');
  const acrValues = (query.acr_values ?? '').split(' ').filter(Boolean);
  if (acrValues.length > 10 || acrValues.some((value) => !ACR_VALUE.test(value)))
    throw invalid(
      'The acr_values parameter must be at most 10 space-separated values of printable characters.',
    );
  return {
    nonce: nonce ?? null,
    maxAge: maxAge === undefined ? null : Number(maxAge),
    prompt,
    ...(acrValues.length > 0 ? { acrValues } : {}),
  };
}
