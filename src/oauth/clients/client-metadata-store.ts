import type { JSONWebKeySet } from 'jose';
import type { Kysely } from 'kysely';
import { DbKey } from '../../database/keys.js';
import type { Database } from '../../database/types.js';

/**
 * What a registered client declared beyond its redirects and grants (RFC 7591 §2, OpenID Connect
 * Dynamic Client Registration §2). Null: not registered.
 */
export interface ClientExtras {
  /** Pages shown to the user on the approval page. */
  logoUri: string | null;
  policyUri: string | null;
  tosUri: string | null;
  /** Its public keys, by value or by reference (never both). */
  jwks: JSONWebKeySet | null;
  jwksUri: string | null;
  /** `RS256`: the userinfo response is a signed JWT. */
  userinfoSignedResponseAlg: string | null;
  /** The only algorithm its request objects may use; null: any this server supports. */
  requestObjectSigningAlg: string | null;
}

export const NO_EXTRAS: ClientExtras = {
  logoUri: null,
  policyUri: null,
  tosUri: null,
  jwks: null,
  jwksUri: null,
  userinfoSignedResponseAlg: null,
  requestObjectSigningAlg: null,
};

/** The `oauth_client_metadata` rows: one per client that declared any of `ClientExtras`. */
export class ClientMetadataStore {
  static inject = [DbKey] as const;

  constructor(private readonly db: Kysely<Database>) {}

  async find(clientId: string): Promise<ClientExtras> {
    const row = await this.db
      .selectFrom('oauth_client_metadata')
      .selectAll()
      .where('client_id', '=', clientId)
      .executeTakeFirst();
    if (!row) return NO_EXTRAS;
    return {
      logoUri: row.logo_uri,
      policyUri: row.policy_uri,
      tosUri: row.tos_uri,
      jwks: row.jwks === null ? null : (JSON.parse(row.jwks) as JSONWebKeySet),
      jwksUri: row.jwks_uri,
      userinfoSignedResponseAlg: row.userinfo_signed_response_alg,
      requestObjectSigningAlg: row.request_object_signing_alg,
    };
  }

  /** Replaces the client's extras (its registration or the registration's update). */
  async save(clientId: string, extras: ClientExtras): Promise<void> {
    await this.db.transaction().execute(async (trx) => {
      await trx.deleteFrom('oauth_client_metadata').where('client_id', '=', clientId).execute();
      await trx
        .insertInto('oauth_client_metadata')
        .values({
          client_id: clientId,
          logo_uri: extras.logoUri,
          policy_uri: extras.policyUri,
          tos_uri: extras.tosUri,
          jwks: extras.jwks === null ? null : JSON.stringify(extras.jwks),
          jwks_uri: extras.jwksUri,
          userinfo_signed_response_alg: extras.userinfoSignedResponseAlg,
          request_object_signing_alg: extras.requestObjectSigningAlg,
        })
        .execute();
    });
  }
}
