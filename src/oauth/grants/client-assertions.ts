import { createLocalJWKSet, decodeJwt, decodeProtectedHeader, errors, jwtVerify } from 'jose';
import type { Kysely } from 'kysely';
import type { Clock } from '../../core/clock.js';
import type { TollgateConfig } from '../../core/config.js';
import { ClockKey, ConfigKey } from '../../core/keys.js';
import { DbKey } from '../../database/keys.js';
import type { Database } from '../../database/types.js';
import { ClientKeys } from '../clients/client-keys.js';
import { ClientMetadataStore } from '../clients/client-metadata-store.js';
import { ClientDocumentError } from '../clients/fetch-client-document.js';
import { OAuthError } from '../errors.js';
import { issuerOf } from '../jwt/access-token-signer.js';
import type { ClientRecord } from '../records.js';
import { type ClientStore, type OAuthStore, OAuthStoreKey } from '../stores/contracts.js';

/** RFC 7523 §2.2: the `client_assertion_type` of a JWT client assertion. */
export const JWT_BEARER_ASSERTION = 'urn:ietf:params:oauth:client-assertion-type:jwt-bearer';
/** The algorithms a client assertion may be signed with (`token_endpoint_auth_signing_alg_values_supported`). */
export const ASSERTION_ALGORITHMS = ['RS256', 'PS256', 'ES256'] as const;
/** An assertion may live at most this long from now: its `jti` is kept until it expires. */
const MAX_LIFETIME_SECONDS = 3600;

const refused = (description: string, detail?: string) =>
  new OAuthError('invalid_client', description, { detail, clientAuthenticationFailed: true });

/**
 * `private_key_jwt` client authentication (RFC 7523 §2.2, §3; OpenID Connect Core §9): the
 * client signs a JWT with a key it registered (`jwks` or `jwks_uri`) whose `iss` and `sub` are its
 * id, whose `aud` is the token endpoint or the issuer, with an `exp` at most an hour away and a
 * `jti` it never used before (kept in `oauth_client_assertions` until `exp`, so every instance
 * refuses a replay; the client's next assertion clears its expired ones). Only clients registered with `token_endpoint_auth_method: private_key_jwt`
 * authenticate this way. Every refusal is `invalid_client` saying why.
 */
export class ClientAssertions {
  static inject = [ClientMetadataStore, ClientKeys, OAuthStoreKey, DbKey, ClockKey, ConfigKey] as const;
  readonly #audiences: string[];

  constructor(
    private readonly extras: ClientMetadataStore,
    private readonly keys: ClientKeys,
    private readonly store: OAuthStore,
    private readonly db: Kysely<Database>,
    private readonly clock: Clock,
    config: TollgateConfig,
  ) {
    const issuer = issuerOf(config);
    this.#audiences = [`${issuer}/oauth/token`, issuer, `${issuer}/oauth/par`];
  }

  /** Whether the request authenticates its client by an assertion. */
  static present(params: Readonly<Record<string, string | undefined>>): boolean {
    return params.client_assertion !== undefined || params.client_assertion_type !== undefined;
  }

  async authenticate(
    params: Readonly<Record<string, string | undefined>>,
    clients: Pick<ClientStore, 'find'>,
  ): Promise<ClientRecord> {
    if (params.client_assertion_type !== JWT_BEARER_ASSERTION) {
      throw refused(`The client_assertion_type must be ${JWT_BEARER_ASSERTION}.`);
    }
    const assertion = params.client_assertion;
    if (!assertion) throw refused('The request is missing the "client_assertion" parameter.');
    const clientId = claimedClient(assertion);
    if (params.client_id !== undefined && params.client_id !== clientId) {
      throw refused('The client_id does not match the client assertion.');
    }
    const client = await clients.find(clientId);
    const registration = client && (await this.store.registrations.findClientRegistration(clientId));
    if (!client || client.revoked || registration?.authMethod !== 'private_key_jwt') {
      throw OAuthError.invalidClient(`client ${clientId.slice(0, 64)} does not use private_key_jwt`);
    }
    const expiresAt = await this.#verify(assertion, clientId);
    await this.#useOnce(clientId, decodeJwt(assertion).jti as string, expiresAt);
    return client;
  }

  /** The verified assertion's expiry (ISO-8601). */
  async #verify(assertion: string, clientId: string): Promise<string> {
    let keys: Awaited<ReturnType<ClientKeys['keysFor']>>;
    try {
      keys = await this.keys.keysFor(await this.extras.find(clientId), decodeProtectedHeader(assertion).kid);
    } catch (error) {
      if (error instanceof ClientDocumentError)
        throw refused(`The client's jwks_uri cannot be used: ${error.message}`);
      throw error;
    }
    if (!keys) throw refused('The client registered no keys.');
    const now = this.clock.now();
    let exp: number;
    try {
      const { payload } = await jwtVerify(assertion, createLocalJWKSet(keys), {
        algorithms: [...ASSERTION_ALGORITHMS],
        issuer: clientId,
        subject: clientId,
        audience: this.#audiences,
        currentDate: now,
        requiredClaims: ['exp', 'jti'],
      });
      exp = payload.exp!;
    } catch (error) {
      if (error instanceof errors.JOSEError)
        throw refused(`The client assertion is not valid: ${reason(error)}`);
      throw error;
    }
    if (exp - now.getTime() / 1000 > MAX_LIFETIME_SECONDS) {
      throw refused(`The client assertion may expire at most ${MAX_LIFETIME_SECONDS} seconds from now.`);
    }
    return new Date(exp * 1000).toISOString();
  }

  /** RFC 7523 §3 item 7: a `jti` is accepted once; the first of two requests at once wins. */
  async #useOnce(clientId: string, jti: string, expiresAt: string): Promise<void> {
    if (typeof jti !== 'string' || jti === '' || jti.length > 255) {
      throw refused('The client assertion jti must be 1 to 255 characters.');
    }
    // The client's expired jtis go first: an expired assertion is refused by its exp anyway.
    await this.db
      .deleteFrom('oauth_client_assertions')
      .where('client_id', '=', clientId)
      .where('expires_at', '<', this.clock.now().toISOString())
      .execute();
    const inserted = await this.db
      .insertInto('oauth_client_assertions')
      .values({ client_id: clientId, jti, expires_at: expiresAt })
      .onConflict((oc) => oc.columns(['client_id', 'jti']).doNothing())
      .executeTakeFirst();
    if (Number(inserted.numInsertedOrUpdatedRows ?? 0) !== 1) {
      throw refused('The client assertion was used before (its jti).');
    }
  }
}

/** The client the assertion names (`sub`, which `iss` must equal), before any check. */
function claimedClient(assertion: string): string {
  let claims: ReturnType<typeof decodeJwt>;
  try {
    claims = decodeJwt(assertion);
  } catch {
    throw refused('The client assertion is not a JWT.');
  }
  if (typeof claims.sub !== 'string' || claims.sub === '' || claims.iss !== claims.sub) {
    throw refused('The client assertion must name the client in both iss and sub.');
  }
  return claims.sub;
}

/** What jose found wrong, in words a developer can act on. */
function reason(error: InstanceType<typeof errors.JOSEError>): string {
  if (error instanceof errors.JWTExpired) return 'it has expired.';
  if (error instanceof errors.JWTClaimValidationFailed)
    return `its ${error.claim} claim is wrong (${error.reason}).`;
  if (error instanceof errors.JWKSNoMatchingKey) return 'no registered key matches its header (kid, alg).';
  if (error instanceof errors.JWSSignatureVerificationFailed) return 'its signature does not verify.';
  if (error instanceof errors.JOSEAlgNotAllowed)
    return `its alg must be one of ${ASSERTION_ALGORITHMS.join(', ')}.`;
  return 'it is malformed.';
}
