import { randomUUID } from 'node:crypto';
import type { Clock } from '../../core/clock.js';
import { EventDispatcher } from '../../core/events.js';
import { ClockKey } from '../../core/keys.js';
import { ClientSecretRotated, ClientUpdated, CredentialCreated } from '../events.js';
import type { GrantRegistry } from '../grants/registry.js';
import { OAuthHooks } from '../hooks.js';
import type { ClientRecord } from '../records.js';
import { hashSecret, randomSecret } from '../secrets.js';
import { type ClientChanges, type OAuthStore, OAuthStoreKey } from '../stores/contracts.js';
import { TokenRevoker } from '../tokens/token-revoker.js';

export interface NewClientInput {
  name: string;
  redirect: string;
  userId?: number | null;
  personalAccess?: boolean;
  password?: boolean;
  /** False makes a public client: no secret, PKCE required. Default true. */
  confidential?: boolean;
  /** Users are not asked to approve it. Only the operator sets this (CLI), never the JSON API. */
  firstParty?: boolean;
  /** The scopes it may ask for; absent or null: any. */
  allowedScopes?: string[] | null;
  /** The grants it may use, within its kind; absent or null: all of those. */
  grantTypes?: string[] | null;
  /** A resource server may introspect any access token (RFC 7662 §4), not only its own. Default false. */
  resourceServer?: boolean;
  /** Only pushed authorization requests (RFC 9126 §6). Default false. */
  requirePushedAuthorizationRequests?: boolean;
  /** RFC 9449 §5.2 `dpop_bound_access_tokens`: its token requests must carry a DPoP proof. */
  dpopBoundAccessTokens?: boolean;
  /** The organization that owns it (then `userId` is null): see `createForOrganization`. */
  organizationId?: number | null;
}

export interface CreatedClient {
  client: ClientRecord;
  /** The plain secret, shown once; null for a public client. Only its hash is stored. */
  plainSecret: string | null;
}

/** Creates, finds, updates and revokes OAuth clients (Passport's ClientRepository). */
export class Clients {
  static inject = [OAuthStoreKey, ClockKey, TokenRevoker, EventDispatcher, OAuthHooks] as const;

  constructor(
    private readonly store: OAuthStore,
    private readonly clock: Clock,
    private readonly revoker: TokenRevoker,
    private readonly events?: EventDispatcher,
    private readonly hooks = new OAuthHooks(),
  ) {}

  /**
   * A new client of `input.userId`, unless that user already owns `max` live clients (then
   * undefined). Creates for one user take turns, so creates sent at once cannot pass the cap.
   */
  async createForOwner(
    input: NewClientInput & { userId: number },
    max: number,
  ): Promise<CreatedClient | undefined> {
    const created = await this.store.transaction(async (store) => {
      await store.clients.lockOwner(input.userId);
      if ((await store.clients.forUser(input.userId)).length >= max) return undefined;
      return this.create(input, store);
    });
    if (created) await this.announce(created.client);
    return created;
  }

  /**
   * A new client the organization owns, made by `creatorId` (whose role must allow managing the
   * organization's credentials), unless it already owns `max` live clients (then undefined). The
   * client belongs to the organization alone: its creator leaving does not end it, but a creator
   * removed while it was being stored does (`OAuthHooks.confirmOrganization`: then 404).
   */
  async createForOrganization(
    input: Omit<NewClientInput, 'userId' | 'organizationId'>,
    creatorId: number,
    organizationId: number,
    max: number,
  ): Promise<CreatedClient | undefined> {
    await this.hooks.checkOrganization(creatorId, organizationId, 'manage');
    const created = await this.store.transaction(async (store) => {
      await store.clients.lockOrganization(organizationId);
      if ((await store.clients.forOrganization(organizationId)).length >= max) return undefined;
      return this.insert({ ...input, userId: null, organizationId }, store);
    });
    const client = created?.client;
    if (!client) return undefined;
    await this.hooks.confirmOrganization(creatorId, organizationId, 'manage', () =>
      this.store.clients.revoke(client.id, this.clock.now().toISOString()),
    );
    await this.events?.dispatch(
      new CredentialCreated('client', client.id, creatorId, client.name, organizationId),
    );
    return created;
  }

  /** Raises `CredentialCreated` for a user's client, unless `store` is a transaction (its caller raises it after). */
  async create(input: NewClientInput, store = this.store): Promise<CreatedClient> {
    const created = await this.insert(input, store);
    if (store === this.store) await this.announce(created.client);
    return created;
  }

  private async announce(client: ClientRecord): Promise<void> {
    if (client.userId !== null && !client.personalAccessClient)
      await this.events?.dispatch(new CredentialCreated('client', client.id, client.userId, client.name));
  }

  private async insert(input: NewClientInput, store: OAuthStore): Promise<CreatedClient> {
    const plainSecret = input.confidential === false ? null : randomSecret();
    const client = await store.clients.create(
      {
        id: randomUUID(),
        userId: input.userId ?? null,
        name: input.name,
        secretHash: plainSecret === null ? null : hashSecret(plainSecret),
        redirect: input.redirect,
        personalAccessClient: input.personalAccess ?? false,
        passwordClient: input.password ?? false,
        firstParty: input.firstParty ?? false,
        allowedScopes: input.allowedScopes ?? null,
        grantTypes: input.grantTypes ?? null,
        resourceServer: input.resourceServer ?? false,
        requirePushedAuthorizationRequests: input.requirePushedAuthorizationRequests ?? false,
        ...(input.dpopBoundAccessTokens ? { dpopBoundAccessTokens: true } : {}),
        ...(input.organizationId ? { organizationId: input.organizationId } : {}),
      },
      this.clock.now().toISOString(),
    );
    return { client, plainSecret };
  }

  /** A live (not revoked) client. */
  async find(id: string): Promise<ClientRecord | undefined> {
    const client = await this.store.clients.find(id);
    return client && !client.revoked ? client : undefined;
  }

  /** A live client owned by `userId`: anyone else's is "not found". */
  async findForUser(id: string, userId: number): Promise<ClientRecord | undefined> {
    const client = await this.find(id);
    return client?.userId === userId ? client : undefined;
  }

  forUser(userId: number): Promise<ClientRecord[]> {
    return this.store.clients.forUser(userId);
  }

  /** The organization's live clients, newest first, for a member whose role may `view` them. */
  async forOrganization(userId: number, organizationId: number): Promise<ClientRecord[]> {
    await this.hooks.checkOrganization(userId, organizationId, 'view');
    return this.store.clients.forOrganization(organizationId);
  }

  /**
   * The organization's live client, for a member whose role may `manage` its clients; undefined
   * for a client of another organization or of a user (404 either way).
   */
  async findForOrganization(
    id: string,
    userId: number,
    organizationId: number,
  ): Promise<ClientRecord | undefined> {
    await this.hooks.checkOrganization(userId, organizationId, 'manage');
    const client = await this.find(id);
    return client?.organizationId === organizationId ? client : undefined;
  }

  /** `actorId`: the user making the change, for the audit log (null: an operator or the client itself). */
  async update(
    client: ClientRecord,
    values: ClientChanges,
    actorId: number | null = null,
  ): Promise<ClientRecord> {
    const now = this.clock.now().toISOString();
    await this.store.clients.update(client.id, values, now);
    await this.events?.dispatch(new ClientUpdated(client.id, client.userId, actorId));
    const changed = Object.fromEntries(Object.entries(values).filter(([, value]) => value !== undefined));
    return { ...client, ...changed, updatedAt: now };
  }

  /**
   * A new secret for a confidential client, returned in plain once (only its hash is kept). The
   * secret it replaces keeps authenticating for `graceSeconds` (0: refused at once), so the
   * client's deployments can switch over; a secret replaced earlier stops at once. Undefined when
   * another rotation (or a deletion) changed the client first: of two at once, one rotates.
   */
  async rotateSecret(
    client: ClientRecord,
    graceSeconds: number,
    actorId: number | null = null,
  ): Promise<string | undefined> {
    if (client.secretHash === null) throw new TypeError('A public client has no secret to rotate.');
    const now = this.clock.now();
    const plainSecret = randomSecret();
    const expiresAt = new Date(now.getTime() + graceSeconds * 1000).toISOString();
    const rotated = await this.store.clients.rotateSecret(
      client.id,
      {
        secretHash: hashSecret(plainSecret),
        replaces: client.secretHash,
        previous: graceSeconds > 0 ? { hash: client.secretHash, expiresAt } : null,
      },
      now.toISOString(),
    );
    if (!rotated) return undefined;
    await this.events?.dispatch(new ClientSecretRotated(client.id, actorId));
    return plainSecret;
  }

  /**
   * Revokes the client and all its tokens (the JSON API's DELETE). False when it was deleted
   * already: of two deletions at once, only one deletes, and the other answers as if it came second.
   */
  delete(client: ClientRecord, actorId: number | null = null): Promise<boolean> {
    return this.revoker.revokeClient(client.id, actorId);
  }

  personalAccessClient(): Promise<ClientRecord | undefined> {
    return this.store.clients.personalAccessClient();
  }
}

/**
 * The grant types a client's `grant_types` may name: the token endpoint's, plus the authorization
 * endpoint's implicit grant and personal access tokens.
 */
export function knownGrantTypes(grants: GrantRegistry): string[] {
  return [...new Set([...grants.grantTypes, 'implicit', 'personal_access'])];
}

/** What a client looks like in JSON (Passport's shape; the secret only right after creation). */
export function serializeClient(client: ClientRecord, plainSecret?: string | null): Record<string, unknown> {
  return {
    id: client.id,
    user_id: client.userId,
    organization_id: client.organizationId ?? null,
    name: client.name,
    redirect: client.redirect,
    personal_access_client: client.personalAccessClient,
    password_client: client.passwordClient,
    first_party: client.firstParty,
    resource_server: client.resourceServer,
    require_pushed_authorization_requests: client.requirePushedAuthorizationRequests,
    confidential: client.secretHash !== null,
    scopes: client.allowedScopes,
    grant_types: client.grantTypes,
    revoked: client.revoked,
    created_at: client.createdAt,
    updated_at: client.updatedAt,
    last_used_at: client.lastUsedAt ?? null,
    ...(plainSecret === undefined ? {} : { secret: plainSecret }),
  };
}
