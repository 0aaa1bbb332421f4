import { REQUEST_OBJECT_ALGORITHMS } from '../authorization/request-object-algorithms.js';
import { type ClientExtras, NO_EXTRAS } from '../clients/client-metadata-store.js';
import { publicKeySetProblem } from '../clients/public-key-set.js';
import { OAuthError } from '../errors.js';
import { ASSERTION_ALGORITHMS } from '../grants/client-assertions.js';
import { clientUrlProblem } from './client-url.js';

const PAGES = [
  ['logo_uri', 'logoUri'],
  ['policy_uri', 'policyUri'],
  ['tos_uri', 'tosUri'],
] as const;

const metadataError = (description: string) => OAuthError.invalidClientMetadata(description);

/**
 * The registration's `logo_uri`, `policy_uri` and `tos_uri` (RFC 7591 §2: shown to the user), its
 * public keys, `jwks` or `jwks_uri` (never both, §2; one of them for `private_key_jwt`), each URL
 * by `clientUrlProblem`'s rules, `userinfo_signed_response_alg` and `request_object_signing_alg`
 * (OpenID Connect Registration §2); else `invalid_client_metadata`.
 */
export function checkClientExtras(
  input: Readonly<Record<string, unknown>>,
  authMethod: string,
  signingAlgorithm: string,
): ClientExtras {
  const extras: ClientExtras = { ...NO_EXTRAS };
  for (const [field, key] of PAGES) {
    const value = input[field];
    if (value === undefined) continue;
    const problem = clientUrlProblem(value, field);
    if (problem) throw metadataError(problem);
    extras[key] = value as string;
  }
  if (input.jwks !== undefined && input.jwks_uri !== undefined) {
    throw metadataError('Register jwks or jwks_uri, not both (RFC 7591 §2).');
  }
  if (input.jwks !== undefined) {
    const problem = publicKeySetProblem(input.jwks);
    if (problem) throw metadataError(`The jwks must be a JSON Web Key Set of public keys: ${problem}`);
    extras.jwks = input.jwks as ClientExtras['jwks'];
  }
  if (input.jwks_uri !== undefined) {
    const problem = clientUrlProblem(input.jwks_uri, 'jwks_uri');
    if (problem) throw metadataError(problem);
    extras.jwksUri = input.jwks_uri as string;
  }
  if (authMethod === 'private_key_jwt' && !extras.jwks && !extras.jwksUri) {
    throw metadataError('A private_key_jwt client must register its keys: jwks or jwks_uri.');
  }
  const userinfo = input.userinfo_signed_response_alg;
  if (userinfo !== undefined) {
    // Core §5.3.2: signed by this server's key; unsigned JSON is the default (leave the field out).
    if (userinfo !== signingAlgorithm) {
      throw metadataError(
        `The userinfo_signed_response_alg must be ${signingAlgorithm}, this server's signing algorithm.`,
      );
    }
    extras.userinfoSignedResponseAlg = signingAlgorithm;
  }
  const requestAlg = input.request_object_signing_alg;
  if (requestAlg !== undefined) {
    if (!(REQUEST_OBJECT_ALGORITHMS as readonly unknown[]).includes(requestAlg)) {
      throw metadataError(
        `The request_object_signing_alg must be one of ${REQUEST_OBJECT_ALGORITHMS.join(', ')}.`,
      );
    }
    if (requestAlg !== 'none' && !extras.jwks && !extras.jwksUri) {
      throw metadataError('Signed request objects need the client keys: register jwks or jwks_uri.');
    }
    extras.requestObjectSigningAlg = requestAlg as string;
  }
  const signing = input.token_endpoint_auth_signing_alg;
  if (signing !== undefined && !(ASSERTION_ALGORITHMS as readonly unknown[]).includes(signing)) {
    throw metadataError(
      `The token_endpoint_auth_signing_alg must be one of ${ASSERTION_ALGORITHMS.join(', ')}.`,
    );
  }
  return extras;
}

/** The extras as registration response fields (RFC 7591 §3.2.1: the registered metadata). */
export function extrasResponse(extras: ClientExtras): Record<string, unknown> {
  const fields: Record<string, unknown> = {};
  for (const [field, key] of PAGES) if (extras[key] !== null) fields[field] = extras[key];
  if (extras.jwks) fields.jwks = extras.jwks;
  if (extras.jwksUri) fields.jwks_uri = extras.jwksUri;
  if (extras.userinfoSignedResponseAlg)
    fields.userinfo_signed_response_alg = extras.userinfoSignedResponseAlg;
  return fields;
}
