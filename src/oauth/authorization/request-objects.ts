import {
  createLocalJWKSet,
  decodeProtectedHeader,
  errors,
  type JWTPayload,
  jwtVerify,
  UnsecuredJWT,
} from 'jose';
import type { Clock } from '../../core/clock.js';
import type { TollgateConfig } from '../../core/config.js';
import { ClockKey, ConfigKey } from '../../core/keys.js';
import { MetadataDocumentClients } from '../cimd/metadata-document-clients.js';
import { ClientKeys } from '../clients/client-keys.js';
import { ClientMetadataStore } from '../clients/client-metadata-store.js';
import { ClientDocumentError, fetchClientDocument } from '../clients/fetch-client-document.js';
import type { ClientFetchConfig } from '../config.js';
import { OAuthError } from '../errors.js';
import { issuerOf } from '../jwt/access-token-signer.js';
import { clientUrlProblem } from '../registration/client-url.js';
import { REQUEST_OBJECT_ALGORITHMS } from './request-object-algorithms.js';

/** The JWT's own claims: they describe the object, not the authorization request. */
const JWT_CLAIMS = new Set(['iss', 'aud', 'exp', 'iat', 'nbf', 'jti']);

const invalidObject = (description: string) => new OAuthError('invalid_request_object', description);

/**
 * OpenID Connect Core §6: an authorization request's parameters passed as a JWT, by value
 * (`request`) or by reference (`request_uri`, fetched as a `jwks_uri` is: public addresses only,
 * no redirects, bounded size and time). The object is signed with a key the client registered
 * (`RS256`, `PS256`, `ES256`), or unsigned (`alg: none`) — which carries no more authority than
 * plain parameters — unless the client registered another `request_object_signing_alg`. Its
 * `iss`, when present, is the client and its `aud` this issuer; `exp` is checked. Its parameters
 * supersede the plain ones (§6.3.3), whose `client_id` and `response_type` must agree. Every
 * failure is shown to the user, never redirected: until the object is read, the redirect URI is
 * not known.
 */
export class RequestObjects {
  static inject = [MetadataDocumentClients, ClientMetadataStore, ClientKeys, ClockKey, ConfigKey] as const;
  readonly #issuer: string;
  readonly #fetch: ClientFetchConfig;

  constructor(
    private readonly clients: MetadataDocumentClients,
    private readonly extras: ClientMetadataStore,
    private readonly keys: ClientKeys,
    private readonly clock: Clock,
    config: TollgateConfig,
  ) {
    this.#issuer = issuerOf(config);
    this.#fetch = config.oauth.clientFetch;
  }

  /** The request's parameters with its request object's read in; the same object without one. */
  async resolve(params: Readonly<Record<string, string>>): Promise<Record<string, string>> {
    const { request, request_uri: requestUri, ...plain } = params;
    if (request === undefined && requestUri === undefined) return { ...params };
    if (request !== undefined && requestUri !== undefined) {
      throw OAuthError.invalidRequest('Send request or request_uri, not both.');
    }
    const clientId = plain.client_id;
    if (!clientId) throw OAuthError.invalidRequest('The request is missing the "client_id" parameter.');
    const client = await this.clients.find(clientId);
    if (!client || client.revoked) throw OAuthError.invalidClient(`unknown client ${clientId}`);
    const jwt = request ?? (await this.#fetchObject(requestUri!));
    const claims = await this.#read(jwt, clientId);
    if (claims.client_id !== undefined && claims.client_id !== clientId) {
      throw invalidObject('The request object names another client_id.');
    }
    if (claims.response_type !== undefined && plain.response_type !== undefined) {
      if (claims.response_type !== plain.response_type) {
        throw invalidObject('The request object and the request name different response types.');
      }
    }
    const merged: Record<string, string> = { ...plain };
    for (const [name, value] of Object.entries(claims)) {
      if (JWT_CLAIMS.has(name) || value === undefined || value === null) continue;
      merged[name] = typeof value === 'string' ? value : JSON.stringify(value);
    }
    return merged;
  }

  async #fetchObject(uri: string): Promise<string> {
    const problem = clientUrlProblem(uri, 'request_uri');
    if (problem) throw new OAuthError('invalid_request_uri', problem);
    try {
      return (await fetchClientDocument(uri, this.#fetch)).trim();
    } catch (error) {
      if (error instanceof ClientDocumentError) {
        throw new OAuthError('invalid_request_uri', `The request_uri cannot be used: ${error.message}`);
      }
      throw error;
    }
  }

  /** The object's claims, its signature (or its being unsigned) and `iss`/`aud`/`exp` checked. */
  async #read(jwt: string, clientId: string): Promise<JWTPayload> {
    let alg: unknown;
    try {
      alg = decodeProtectedHeader(jwt).alg;
    } catch {
      throw invalidObject('The request object is not a JWT.');
    }
    const extras = await this.extras.find(clientId);
    const registered = extras.requestObjectSigningAlg;
    if (typeof alg !== 'string' || !(REQUEST_OBJECT_ALGORITHMS as readonly string[]).includes(alg)) {
      throw invalidObject(`The request object's alg must be one of ${REQUEST_OBJECT_ALGORITHMS.join(', ')}.`);
    }
    if (registered !== null && alg !== registered) {
      throw invalidObject(`This client registered request objects signed with ${registered}.`);
    }
    const checks = { currentDate: this.clock.now() };
    try {
      const payload =
        alg === 'none'
          ? UnsecuredJWT.decode(jwt, checks).payload
          : (
              await jwtVerify(jwt, createLocalJWKSet(await this.#keys(extras, jwt)), {
                ...checks,
                algorithms: [alg],
              })
            ).payload;
      if (payload.iss !== undefined && payload.iss !== clientId) {
        throw invalidObject("The request object's iss must be the client.");
      }
      const audiences = typeof payload.aud === 'string' ? [payload.aud] : (payload.aud ?? [this.#issuer]);
      if (!audiences.includes(this.#issuer))
        throw invalidObject(`The request object's aud must be ${this.#issuer}.`);
      return payload;
    } catch (error) {
      if (error instanceof errors.JWTExpired) throw invalidObject('The request object has expired.');
      if (error instanceof errors.JWTClaimValidationFailed)
        throw invalidObject(`The request object's ${error.claim} is wrong.`);
      if (error instanceof errors.JOSEError)
        throw invalidObject("The request object's signature does not verify with the client's keys.");
      throw error;
    }
  }

  async #keys(extras: Awaited<ReturnType<ClientMetadataStore['find']>>, jwt: string) {
    try {
      const keys = await this.keys.keysFor(extras, decodeProtectedHeader(jwt).kid);
      if (!keys) throw invalidObject('The client registered no keys to verify its request object with.');
      return keys;
    } catch (error) {
      if (error instanceof ClientDocumentError)
        throw invalidObject(`The client's jwks_uri cannot be used: ${error.message}`);
      throw error;
    }
  }
}
