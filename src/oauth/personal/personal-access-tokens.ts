import type { Clock } from '../../core/clock.js';
import type { TollgateConfig } from '../../core/config.js';
import { ConfigurationError } from '../../core/errors.js';
import { EventDispatcher } from '../../core/events.js';
import { ClockKey, ConfigKey } from '../../core/keys.js';
import { CredentialCreated, PersonalAccessTokenRevoked } from '../events.js';
import { OAuthHooks } from '../hooks.js';
import { type AccessTokenRecord, type AccessTokenWithClient, isRecordId } from '../records.js';
import { Scopes } from '../scopes.js';
import { type OAuthStore, OAuthStoreKey } from '../stores/contracts.js';
import { TokenIssuer } from '../tokens/token-issuer.js';
import { TokenRevoker } from '../tokens/token-revoker.js';

/** What `user.createToken()` and the JSON API return: the JWT (shown once) and its record. */
export interface PersonalAccessTokenResult {
  accessToken: string;
  token: AccessTokenRecord;
}

/** Thrown when no personal access client exists: `tollgate install` has not run. */
export class PersonalAccessClientMissing extends ConfigurationError {
  constructor() {
    super(
      'Personal access client not found. Run `tollgate install` (or `tollgate client --personal`) first.',
    );
    this.name = 'PersonalAccessClientMissing';
  }
}

/**
 * Personal access tokens: issued by the personal access client, always long-lived
 * (`oauth.personalAccessTokenTtlSeconds`, not the configured access token lifetime).
 */
export class PersonalAccessTokens {
  static inject = [
    OAuthStoreKey,
    TokenIssuer,
    TokenRevoker,
    Scopes,
    ConfigKey,
    ClockKey,
    EventDispatcher,
    OAuthHooks,
  ] as const;

  constructor(
    private readonly store: OAuthStore,
    private readonly issuer: TokenIssuer,
    private readonly revoker: TokenRevoker,
    private readonly scopes: Scopes,
    private readonly config: TollgateConfig,
    private readonly clock: Clock,
    private readonly events?: EventDispatcher,
    private readonly hooks = new OAuthHooks(),
  ) {}

  /**
   * Throws `invalid_scope` (OAuthError) for an unknown scope or `*`; 422 for one the user's plan
   * does not allow. `expiresInDays`: its lifetime, chosen at creation; absent or null:
   * `oauth.personalAccessTokenTtlSeconds`. `organizationId`: the token acts for that organization
   * (its `org_id`; the user's role must allow it) and stops working when they leave it.
   */
  async create(
    userId: number,
    name: string,
    scopes: readonly string[] = [],
    options: {
      expiresInDays?: number | null | undefined;
      ttlSeconds?: number;
      organizationId?: number | null | undefined;
    } = {},
  ): Promise<PersonalAccessTokenResult> {
    const organizationId = options.organizationId ?? null;
    if (organizationId !== null) await this.hooks.checkOrganization(userId, organizationId, 'use');
    const granted = this.scopes.validate([...new Set(scopes)], { allowAll: false });
    await this.scopes.refuseUnissuable(userId, granted, organizationId);
    const client = await this.store.clients.personalAccessClient();
    if (!client) throw new PersonalAccessClientMissing();
    const issued = await this.issuer.issue({
      client,
      userId,
      name,
      scopes: granted,
      organizationId,
      ttlSeconds:
        options.ttlSeconds ??
        (options.expiresInDays
          ? options.expiresInDays * 86_400
          : this.config.oauth.personalAccessTokenTtlSeconds),
    });
    if (organizationId !== null)
      await this.hooks.confirmOrganization(userId, organizationId, 'use', () =>
        this.revoker.revoke(issued.record.id),
      );
    await this.events?.dispatch(
      new CredentialCreated('personal-access-token', issued.record.id, userId, name, organizationId),
    );
    return { accessToken: issued.accessToken, token: issued.record };
  }

  /**
   * The user's own live personal access tokens (not those acting for an organization, as with API
   * keys); with `organizationId`, those acting for it (members only).
   */
  async forUser(userId: number, organizationId?: number): Promise<AccessTokenWithClient[]> {
    if (organizationId !== undefined) await this.hooks.checkOrganization(userId, organizationId, 'view');
    const now = this.clock.now().toISOString();
    const tokens = await this.store.accessTokens.forUser(userId, {
      personal: true,
      now,
      ...(organizationId ? { organizationId } : {}),
    });
    return organizationId === undefined ? tokens.filter((token) => !token.organizationId) : tokens;
  }

  /**
   * The user's own live personal access token, or undefined (someone else's is "not found"); with
   * `organizationId`, only one acting for that organization, without it only one acting for none.
   */
  async findForUser(
    tokenId: string,
    userId: number,
    organizationId?: number,
  ): Promise<AccessTokenRecord | undefined> {
    if (!isRecordId(tokenId)) return undefined; // an id from a URL path: no query for an impossible one
    const token = await this.store.accessTokens.findWithClient(tokenId);
    if (!token || token.userId !== userId || token.revoked || !token.client.personalAccessClient)
      return undefined;
    return (token.organizationId ?? undefined) === organizationId ? token : undefined;
  }

  /**
   * A new secret for a live token: the same name, scopes and lifetime, the old token revoked
   * first. Undefined when it was revoked already — of two regenerations at once, one regenerates.
   */
  async regenerate(token: AccessTokenRecord): Promise<PersonalAccessTokenResult | undefined> {
    if (!(await this.revoke(token.id))) return undefined;
    const ttlSeconds = Math.round((Date.parse(token.expiresAt) - Date.parse(token.createdAt)) / 1000);
    return this.create(token.userId!, token.name ?? '', token.scopes, {
      ttlSeconds,
      organizationId: token.organizationId,
    });
  }

  /** Revokes the token; false when it was revoked already (of two at once, the one that came second). */
  async revoke(tokenId: string): Promise<boolean> {
    if (!(await this.revoker.revoke(tokenId))) return false;
    const userId = (await this.store.accessTokens.find(tokenId))?.userId;
    if (userId != null) await this.events?.dispatch(new PersonalAccessTokenRevoked(tokenId, userId));
    return true;
  }
}

/** A token as the JSON APIs show it (Passport's `Token` model shape). */
export function serializeToken(token: AccessTokenRecord | AccessTokenWithClient): Record<string, unknown> {
  const out: Record<string, unknown> = {
    id: token.id,
    user_id: token.userId,
    client_id: token.clientId,
    name: token.name,
    scopes: token.scopes,
    revoked: token.revoked,
    created_at: token.createdAt,
    updated_at: token.updatedAt,
    expires_at: token.expiresAt,
    last_used_at: token.lastUsedAt ?? null,
    organization_id: token.organizationId ?? null,
  };
  if ('client' in token) {
    out.client = { id: token.client.id, name: token.client.name, user_id: token.client.userId };
  }
  return out;
}
