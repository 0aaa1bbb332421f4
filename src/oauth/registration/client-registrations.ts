import type { Clock } from '../../core/clock.js';
import type { TollgateConfig } from '../../core/config.js';
import { ClockKey, ConfigKey } from '../../core/keys.js';
import { type ClientExtras, ClientMetadataStore } from '../clients/client-metadata-store.js';
import { Clients } from '../clients/clients.js';
import { OAuthError } from '../errors.js';
import { bearerToken } from '../guard/bearer.js';
import { issuerOf } from '../jwt/access-token-signer.js';
import { ClientLogout, type LogoutSettings } from '../logout/client-logout.js';
import type { ClientRecord } from '../records.js';
import { hashSecret, randomSecret, safeEqual } from '../secrets.js';
import { type OAuthStore, OAuthStoreKey } from '../stores/contracts.js';
import { extrasResponse } from './client-extras.js';
import type { AuthMethod, ClientMetadata } from './client-metadata.js';

/** A client as the registration endpoints see it, with its registered auth method. */
export interface RegisteredClient {
  client: ClientRecord;
  authMethod: AuthMethod;
  /** Its logout URIs, when read (registration responses show them). */
  logout?: LogoutSettings;
  /** Its pages, keys and algorithms, when read. */
  extras?: ClientExtras;
}

const refused = (detail: string) => OAuthError.invalidToken({ reason: 'invalid', detail });

/**
 * Dynamic client registration (RFC 7591) and its management protocol (RFC 7592): registers a
 * client with a registration access token, lets that token read, replace and delete it, and
 * checks the initial access tokens of the `token` policy. Every token is kept as SHA-256 only.
 */
export class ClientRegistrations {
  static inject = [Clients, OAuthStoreKey, ClockKey, ConfigKey, ClientLogout, ClientMetadataStore] as const;
  readonly #issuer: string;

  constructor(
    private readonly clients: Clients,
    private readonly store: OAuthStore,
    private readonly clock: Clock,
    config: TollgateConfig,
    private readonly logout: ClientLogout,
    private readonly extras: ClientMetadataStore,
  ) {
    this.#issuer = issuerOf(config);
  }

  /** RFC 7592 §1: where the client's registration is managed. */
  clientUri(clientId: string): string {
    return `${this.#issuer}/oauth/register/${encodeURIComponent(clientId)}`;
  }

  /** RFC 7591 §3.1: a new client; its secret and registration access token are shown only now. */
  async register(
    metadata: ClientMetadata,
  ): Promise<RegisteredClient & { plainSecret: string | null; registrationToken: string }> {
    const { client, plainSecret } = await this.clients.create({
      name: metadata.clientName,
      redirect: metadata.redirectUris.join(','),
      confidential: metadata.authMethod !== 'none',
      allowedScopes: metadata.scopes,
      grantTypes: metadata.grantTypes,
    });
    const registrationToken = randomSecret();
    await this.store.registrations.insertClientToken(
      { clientId: client.id, tokenHash: hashSecret(registrationToken), authMethod: metadata.authMethod },
      this.clock.now().toISOString(),
    );
    await this.logout.save(client.id, metadata.logout);
    await this.extras.save(client.id, metadata.extras);
    return {
      client,
      authMethod: metadata.authMethod,
      logout: metadata.logout,
      extras: metadata.extras,
      // A private_key_jwt client authenticates with its keys: its secret is never shown, so unusable.
      plainSecret: metadata.authMethod === 'private_key_jwt' ? null : plainSecret,
      registrationToken,
    };
  }

  /**
   * RFC 7592 §2: the client whose registration access token the Authorization header carries.
   * An unknown, deleted or revoked client and a wrong token are all 401 `invalid_token`.
   */
  async authenticate(clientId: string, authorization: string | undefined): Promise<RegisteredClient> {
    const token = bearerToken(authorization);
    if (!token) throw OAuthError.invalidToken({ reason: 'missing' });
    const registration = await this.store.registrations.findClientRegistration(clientId);
    if (!registration || !safeEqual(registration.tokenHash, hashSecret(token))) {
      throw refused(`no registration of ${clientId.slice(0, 64)} with this token`);
    }
    const client = await this.clients.find(clientId);
    if (!client) throw refused(`client ${clientId} is revoked`);
    const logout = await this.logout.settings(clientId);
    const extras = await this.extras.find(clientId);
    return { client, authMethod: registration.authMethod as AuthMethod, logout, extras };
  }

  /** RFC 7592 §2.2: the new metadata replaces the old; a client cannot gain or lose its secret. */
  async update(registered: RegisteredClient, metadata: ClientMetadata): Promise<RegisteredClient> {
    if (credentialKind(metadata.authMethod) !== credentialKind(registered.authMethod)) {
      throw OAuthError.invalidClientMetadata(
        'The token_endpoint_auth_method cannot change between none, a secret and private_key_jwt.',
      );
    }
    const client = await this.clients.update(registered.client, {
      name: metadata.clientName,
      redirect: metadata.redirectUris.join(','),
      allowedScopes: metadata.scopes,
      grantTypes: metadata.grantTypes,
    });
    await this.logout.save(client.id, metadata.logout);
    await this.extras.save(client.id, metadata.extras);
    return { client, authMethod: registered.authMethod, logout: metadata.logout, extras: metadata.extras };
  }

  /** RFC 7592 §2.3: the registration access token stops working, the client and its tokens are revoked. */
  async delete(registered: RegisteredClient): Promise<void> {
    // Of two deletions at once, one removes the registration; the other is told its token is gone.
    if (!(await this.store.registrations.deleteClientToken(registered.client.id))) {
      throw refused('registration already deleted');
    }
    await this.clients.delete(registered.client);
  }

  /** An initial access token (RFC 7591 §3) for the `token` policy, valid for `ttlSeconds`. */
  async createInitialToken(ttlSeconds: number): Promise<{ token: string; expiresAt: string }> {
    const token = randomSecret();
    const now = this.clock.now();
    const expiresAt = new Date(now.getTime() + ttlSeconds * 1000).toISOString();
    await this.store.registrations.insertInitialToken(hashSecret(token), now.toISOString(), expiresAt);
    return { token, expiresAt };
  }

  /** RFC 7591 §3: the request's initial access token, known and not expired, else 401. */
  async checkInitialToken(authorization: string | undefined): Promise<void> {
    const token = bearerToken(authorization);
    if (!token) throw OAuthError.invalidToken({ reason: 'missing' });
    const expiresAt = await this.store.registrations.initialTokenExpiry(hashSecret(token));
    if (expiresAt === undefined) throw refused('unknown initial access token');
    if (expiresAt <= this.clock.now().toISOString()) throw OAuthError.invalidToken({ reason: 'expired' });
  }
}

/** What a client authenticates with: nothing, its secret (either method) or its keys. */
function credentialKind(method: AuthMethod): string {
  return method === 'client_secret_post' ? 'client_secret_basic' : method;
}

/** RFC 7591 §3.2.1 / RFC 7592 §3: the client's registration as JSON. */
export function registrationResponse(
  { client, authMethod, logout, extras }: RegisteredClient,
  clientUri: string,
  secrets: { plainSecret?: string | null; registrationToken?: string } = {},
): Record<string, unknown> {
  const grantTypes = client.grantTypes ?? [];
  return {
    client_id: client.id,
    client_id_issued_at: Math.floor(Date.parse(client.createdAt) / 1000),
    ...(secrets.plainSecret ? { client_secret: secrets.plainSecret, client_secret_expires_at: 0 } : {}),
    ...(secrets.registrationToken ? { registration_access_token: secrets.registrationToken } : {}),
    registration_client_uri: clientUri,
    client_name: client.name,
    redirect_uris: client.redirect ? client.redirect.split(',') : [],
    grant_types: grantTypes,
    response_types: grantTypes.includes('authorization_code') ? ['code'] : [],
    token_endpoint_auth_method: authMethod,
    ...(client.allowedScopes ? { scope: client.allowedScopes.join(' ') } : {}),
    ...(logout?.postLogoutRedirectUris.length
      ? { post_logout_redirect_uris: logout.postLogoutRedirectUris }
      : {}),
    ...(logout?.backchannelLogoutUri
      ? {
          backchannel_logout_uri: logout.backchannelLogoutUri,
          backchannel_logout_session_required: logout.backchannelLogoutSessionRequired,
        }
      : {}),
    ...(extras ? extrasResponse(extras) : {}),
  };
}
