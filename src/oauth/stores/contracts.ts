import { InjectionKey } from '../../core/container.js';
import type {
  AccessTokenRecord,
  AccessTokenWithClient,
  AuthCodeRecord,
  ClientRecord,
  DeviceCodeRecord,
  RefreshTokenRecord,
} from '../records.js';

export type NewClient = Omit<ClientRecord, 'revoked' | 'createdAt' | 'updatedAt'>;

/** What an update may change; an absent limit stays as it is. */
export interface ClientChanges {
  name: string;
  redirect: string;
  allowedScopes?: string[] | null;
  grantTypes?: string[] | null;
}

/** A client's new secret, replacing the one whose hash is `replaces` (and only that one). */
export interface SecretRotation {
  secretHash: string;
  replaces: string;
  /** The replaced secret while it stays valid; null: refused from now on. */
  previous: { hash: string; expiresAt: string } | null;
}

export interface ClientStore {
  find(id: string): Promise<ClientRecord | undefined>;
  create(client: NewClient, now: string): Promise<ClientRecord>;
  /**
   * Inserts or refreshes a Client ID Metadata Document's client (its id is the document's URL):
   * name, redirects, scopes and grant types change; a revocation stays.
   */
  saveDocumentClient(client: NewClient, now: string): Promise<void>;
  update(id: string, values: ClientChanges, now: string): Promise<void>;
  /**
   * Replaces a live client's secret, only if it still is `rotation.replaces`: of two rotations at
   * once one wins and the other gets false.
   */
  rotateSecret(id: string, rotation: SecretRotation, now: string): Promise<boolean>;
  /** Clients the user owns, not revoked, newest first. */
  forUser(userId: number): Promise<ClientRecord[]>;
  /** Clients the organization owns, not revoked, newest first. */
  forOrganization(organizationId: number): Promise<ClientRecord[]>;
  /**
   * Inside a transaction: makes other transactions that call it for the same user wait until
   * this one ends, so a count and an insert of that user's clients are not interleaved.
   */
  lockOwner(userId: number): Promise<void>;
  /** `lockOwner` for an organization's clients. */
  lockOrganization(organizationId: number): Promise<void>;
  /** The newest personal access client that is not revoked. */
  personalAccessClient(): Promise<ClientRecord | undefined>;
  /** Marks a client revoked; false when it already was (or does not exist). */
  revoke(id: string, now: string): Promise<boolean>;
}

export interface AccessTokenStore {
  insert(token: AccessTokenRecord): Promise<void>;
  find(id: string): Promise<AccessTokenRecord | undefined>;
  /** One primary-key lookup joined with the client: what a guard checks on every request. */
  findWithClient(id: string): Promise<AccessTokenWithClient | undefined>;
  /**
   * The user's live tokens (not revoked, not expired at `now`), newest first; `personal` filters by
   * client kind, `organizationId` to the tokens acting for that organization.
   */
  forUser(
    userId: number,
    filter: { personal?: boolean; organizationId?: number; now: string },
  ): Promise<AccessTokenWithClient[]>;
  /** Revokes the tokens acting for the organization (only `userId`'s, if given); returns the ids newly revoked. */
  revokeForOrganization(organizationId: number, now: string, userId?: number): Promise<string[]>;
  /** Marks tokens revoked; returns the ids that were not revoked before. */
  revoke(ids: readonly string[], now: string): Promise<string[]>;
  /** Revokes every token of a client; returns the ids newly revoked. */
  revokeForClient(clientId: string, now: string): Promise<string[]>;
  /** The scopes of the user's latest-expiring live token for the client (the approval page's memory). */
  latestLiveScopes(userId: number, clientId: string, now: string): Promise<string[] | undefined>;
  /** Every distinct set of scopes among the user's live tokens for the client. */
  liveScopes(userId: number, clientId: string, now: string): Promise<string[][]>;
  /** The `kid`s that live tokens (not revoked, not expired at `now`) were signed with; null for unrecorded ones. */
  kidsInUse(now: string): Promise<(string | null)[]>;
}

export interface RefreshTokenStore {
  insert(token: RefreshTokenRecord): Promise<void>;
  /** The new token and the access token it comes with, both or neither (one statement on PostgreSQL). */
  insertWithAccessToken(token: RefreshTokenRecord, accessToken: AccessTokenRecord): Promise<void>;
  find(id: string): Promise<RefreshTokenRecord | undefined>;
  /** The refresh token and the access token it was issued with, in one statement (the refresh grant's read). */
  findWithAccessToken(
    id: string,
  ): Promise<{ refreshToken: RefreshTokenRecord; accessToken: AccessTokenRecord } | undefined>;
  findByAccessToken(accessTokenId: string): Promise<RefreshTokenRecord | undefined>;
  /** Atomically marks a live refresh token used; false when another request got there first. */
  consume(id: string): Promise<boolean>;
  /** Revokes every refresh token of a family; returns their access token ids. */
  revokeFamily(familyId: string): Promise<string[]>;
  revokeForAccessTokens(accessTokenIds: readonly string[]): Promise<void>;
}

export interface AuthCodeStore {
  /**
   * Inserts the code only while its client exists and is not revoked, in the same statement (the
   * authorization endpoint may have read the client from a cache); false when it was not.
   */
  insert(code: AuthCodeRecord): Promise<boolean>;
  find(id: string): Promise<AuthCodeRecord | undefined>;
  /**
   * Atomically marks a live code used and records the access token it is exchanged for (so a
   * reuse can revoke it); false when it was used before.
   */
  consume(id: string, accessTokenId?: string): Promise<boolean>;
  attachAccessToken(id: string, accessTokenId: string): Promise<void>;
}

export interface DeviceCodeStore {
  /** Throws the driver's unique violation when the user code's digest is taken. */
  insert(code: DeviceCodeRecord): Promise<void>;
  find(id: string): Promise<DeviceCodeRecord | undefined>;
  findByUserCode(userCodeHash: string): Promise<DeviceCodeRecord | undefined>;
  /**
   * Records a poll of a pending code, if no other poll was recorded since `previous` (compare and
   * set); false when one was, or the code is no longer pending.
   */
  recordPoll(
    id: string,
    previous: string | null,
    polledAt: string,
    intervalSeconds: number,
  ): Promise<boolean>;
  /** The user's answer to a pending, unexpired code; false when it was answered before or expired. */
  decide(id: string, decision: 'approved' | 'denied', userId: number, now: string): Promise<boolean>;
  /** Atomically marks an approved code redeemed for `accessTokenId`; false when it was redeemed before. */
  consume(id: string, accessTokenId: string): Promise<boolean>;
}

export interface PurgeOptions {
  revoked: boolean;
  expired: boolean;
  /** Only rows that expired (or were created, for revoked rows) before this instant. */
  before: string;
  /**
   * Rest after each batch as long as the batch took, so the purge takes at most half of a core
   * from the servers beside it (default); false deletes as fast as the database goes.
   */
  paced?: boolean;
}

export interface PurgeCounts {
  accessTokens: number;
  refreshTokens: number;
  authCodes: number;
  /** Only expired ones: device codes are never revoked. */
  deviceCodes: number;
  /** Only expired ones: pushed authorization requests (RFC 9126) are used, never revoked. */
  pushedRequests: number;
  /** Only expired ones: dynamic registration's initial access tokens (RFC 7591 §3). */
  registrationTokens: number;
  /** API keys revoked, or expired (a key without an expiry never is). */
  apiKeys: number;
  /** Only with expired ones: which clients a login session authorized, once none of its user's sessions is alive. */
  logoutSessions: number;
}

/**
 * Everything the OAuth core stores, behind small interfaces. `transaction` runs a unit of work on
 * one connection; the Kysely implementation is in `kysely-store.ts`.
 */
/** A dynamically registered client's registration access token (its digest) and auth method. */
export interface ClientRegistration {
  clientId: string;
  tokenHash: string;
  authMethod: string;
}

/** Dynamic registration's secrets (RFC 7591 §3, RFC 7592 §1), all as SHA-256 digests. */
export interface RegistrationStore {
  insertInitialToken(hash: string, createdAt: string, expiresAt: string): Promise<void>;
  /** When the initial access token expires; undefined if there is none with this digest. */
  initialTokenExpiry(hash: string): Promise<string | undefined>;
  insertClientToken(registration: ClientRegistration, createdAt: string): Promise<void>;
  /** The client's registration, if it was registered dynamically and not deleted. */
  findClientRegistration(clientId: string): Promise<ClientRegistration | undefined>;
  /** False if there was none (already deleted). */
  deleteClientToken(clientId: string): Promise<boolean>;
}

export interface OAuthStore {
  readonly clients: ClientStore;
  readonly accessTokens: AccessTokenStore;
  readonly refreshTokens: RefreshTokenStore;
  readonly authCodes: AuthCodeStore;
  readonly deviceCodes: DeviceCodeStore;
  readonly registrations: RegistrationStore;
  transaction<T>(work: (store: OAuthStore) => Promise<T>): Promise<T>;
  purge(options: PurgeOptions): Promise<PurgeCounts>;
}

export const OAuthStoreKey = new InjectionKey<OAuthStore>('OAuthStore');
