import type { Clock } from '../../core/clock.js';
import type { TollgateConfig } from '../../core/config.js';
import { ValidationError } from '../../core/errors.js';
import { EventDispatcher } from '../../core/events.js';
import { ClockKey, ConfigKey } from '../../core/keys.js';
import { isUniqueViolation } from '../../database/errors.js';
import { ApiKeyRevoked, CredentialCreated } from '../events.js';
import { OAuthHooks } from '../hooks.js';
import { Scopes } from '../scopes.js';
import { hashSecret, randomId } from '../secrets.js';
import { apiKeyEnvironment } from './environment.js';
import { generateApiKey, keyPrefix, lastFour } from './key-format.js';
import { type ApiKeyRecord, type ApiKeyStore, ApiKeyStoreKey, isApiKeyId } from './records.js';

export interface NewApiKeyInput {
  name: string;
  scopes?: readonly string[];
  /** Days until it stops working; absent or null: never. */
  expiresInDays?: number | null;
  rateLimitPerMinute?: number | null;
  /** The organization that owns it (the creator's role must allow managing its keys); absent: the user's own. */
  organizationId?: number | null;
}

/** What `create` returns: the key, to show once, and its record. */
export interface CreatedApiKey {
  plainKey: string;
  key: ApiKeyRecord;
}

const DAY_MS = 24 * 3600 * 1000;

/**
 * API keys: created for a user with a name, scopes, an optional expiry and rate limit; stored as
 * the SHA-256 of the key (a 178-bit random secret needs no slow hash — nothing to brute-force —
 * and a fast one keeps the guard's lookup a single indexed read); revoked by id.
 *
 * @example
 * const { plainKey } = await keys.create(user.id, { name: 'CI', scopes: ['check-status'] });
 */
export class ApiKeys {
  static inject = [ApiKeyStoreKey, Scopes, EventDispatcher, ConfigKey, ClockKey, OAuthHooks] as const;

  constructor(
    private readonly store: ApiKeyStore,
    private readonly scopes: Scopes,
    private readonly events: EventDispatcher,
    private readonly config: TollgateConfig,
    private readonly clock: Clock,
    private readonly hooks = new OAuthHooks(),
  ) {}

  /**
   * Throws `invalid_scope` (OAuthError) for an unknown scope or `*`, and a 422 when the user has a
   * live key of that name: of two creates at once (a double click) one wins, the other is told.
   */
  async create(userId: number, input: NewApiKeyInput): Promise<CreatedApiKey> {
    const organizationId = input.organizationId ?? null;
    if (organizationId !== null) await this.hooks.checkOrganization(userId, organizationId, 'manage');
    const scopes = this.scopes.validate([...new Set(input.scopes ?? [])], { allowAll: false });
    await this.scopes.refuseUnissuable(userId, scopes, organizationId);
    const environment = apiKeyEnvironment(this.config);
    const plainKey = generateApiKey(environment);
    const now = this.clock.now();
    try {
      const key = await this.store.insert({
        id: `ak_${randomId(16)}`,
        userId,
        name: input.name,
        hash: hashSecret(plainKey),
        prefix: keyPrefix(environment),
        lastFour: lastFour(plainKey),
        scopes,
        rateLimitPerMinute: input.rateLimitPerMinute ?? null,
        organizationId,
        createdAt: now.toISOString(),
        expiresAt: input.expiresInDays
          ? new Date(now.getTime() + input.expiresInDays * DAY_MS).toISOString()
          : null,
      });
      if (organizationId !== null)
        await this.hooks.confirmOrganization(userId, organizationId, 'manage', () =>
          this.store.revoke(key.id, this.clock.now().toISOString()),
        );
      await this.events.dispatch(new CredentialCreated('api-key', key.id, userId, key.name, organizationId));
      return { plainKey, key };
    } catch (err) {
      if (isUniqueViolation(err))
        throw new ValidationError({ name: ['You already have an API key with this name.'] });
      throw err;
    }
  }

  /** The user's own keys that are not revoked, newest first (not those they made for an organization). */
  async forUser(userId: number): Promise<ApiKeyRecord[]> {
    return (await this.store.forUser(userId)).filter((key) => key.organizationId === null);
  }

  /** The organization's live keys, newest first, for a member whose role may `view` them. */
  async forOrganization(userId: number, organizationId: number): Promise<ApiKeyRecord[]> {
    await this.hooks.checkOrganization(userId, organizationId, 'view');
    return this.store.forOrganization(organizationId);
  }

  /**
   * The organization's live key, for a member whose role may `manage` its keys; undefined for a
   * key of another organization or of a user (404 either way).
   */
  async findForOrganization(
    id: string,
    userId: number,
    organizationId: number,
  ): Promise<ApiKeyRecord | undefined> {
    await this.hooks.checkOrganization(userId, organizationId, 'manage');
    if (!isApiKeyId(id)) return undefined;
    const key = await this.store.find(id);
    return key && key.organizationId === organizationId && !key.revoked ? key : undefined;
  }

  /** The user's own key that is not revoked, or undefined (someone else's is "not found"). */
  async findForUser(id: string, userId: number): Promise<ApiKeyRecord | undefined> {
    if (!isApiKeyId(id)) return undefined;
    const key = await this.store.find(id);
    return key && key.userId === userId && key.organizationId === null && !key.revoked ? key : undefined;
  }

  /** Revokes the key; every instance's guard refuses it from then on. False when it already was. */
  async revoke(key: Pick<ApiKeyRecord, 'id' | 'userId'>): Promise<boolean> {
    const revoked = await this.store.revoke(key.id, this.clock.now().toISOString());
    if (revoked) await this.events.dispatch(new ApiKeyRevoked(key.id, key.userId));
    return revoked;
  }
}

/** A key as the JSON API shows it: never the key itself, only its prefix and last four characters. */
export function serializeApiKey(key: ApiKeyRecord): Record<string, unknown> {
  return {
    id: key.id,
    name: key.name,
    prefix: key.prefix,
    last_four: key.lastFour,
    hint: `${key.prefix}…${key.lastFour}`,
    scopes: key.scopes,
    rate_limit_per_minute: key.rateLimitPerMinute,
    created_at: key.createdAt,
    expires_at: key.expiresAt,
    last_used_at: key.lastUsedAt,
    organization_id: key.organizationId,
  };
}
