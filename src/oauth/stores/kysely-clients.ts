import { type Kysely, SqliteAdapter, sql } from 'kysely';
import type { Database } from '../../database/types.js';
import { type ClientRecord, isClientId } from '../records.js';
import type { OAuthClientRow } from '../tables.js';
import type { ClientChanges, ClientStore, NewClient, SecretRotation } from './contracts.js';
import { Precompiled } from './precompiled.js';

export function toClient(row: OAuthClientRow): ClientRecord {
  return {
    id: row.id,
    userId: row.user_id,
    name: row.name,
    secretHash: row.secret,
    redirect: row.redirect,
    personalAccessClient: row.personal_access_client === 1,
    passwordClient: row.password_client === 1,
    firstParty: row.first_party === 1,
    allowedScopes: row.scopes === null ? null : (JSON.parse(row.scopes) as string[]),
    grantTypes: row.grant_types === null ? null : (JSON.parse(row.grant_types) as string[]),
    resourceServer: row.resource_server === 1,
    requirePushedAuthorizationRequests: row.require_pushed_authorization_requests === 1,
    ...(row.dpop_bound_access_tokens === 1 ? { dpopBoundAccessTokens: true } : {}),
    ...(row.previous_secret && row.previous_secret_expires_at
      ? { previousSecret: { hash: row.previous_secret, expiresAt: row.previous_secret_expires_at } }
      : {}),
    ...(row.last_used_at ? { lastUsedAt: row.last_used_at } : {}),
    ...(row.organization_id != null ? { organizationId: row.organization_id } : {}),
    revoked: row.revoked === 1,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

const findClient = new Precompiled<OAuthClientRow>((db: Kysely<Database>) =>
  db.selectFrom('oauth_clients').selectAll().where('id', '=', ''),
);

/** The first key of `lockOwner`'s advisory locks: clients' owners, apart from other locks. */
const OWNER_LOCK_SPACE = 0x7c11e47;
/** The same for `lockOrganization`: an organization and a user may share an id. */
const ORGANIZATION_LOCK_SPACE = 0x7c11e48;

export class KyselyClientStore implements ClientStore {
  constructor(private readonly db: Kysely<Database>) {}

  async find(id: string): Promise<ClientRecord | undefined> {
    if (!isClientId(id)) return undefined;
    const [row] = await findClient.execute(this.db, [id]);
    return row ? toClient(row) : undefined;
  }

  async create(client: NewClient, now: string): Promise<ClientRecord> {
    const row = clientRow(client, now);
    await this.db.insertInto('oauth_clients').values(row).execute();
    return toClient(row);
  }

  async saveDocumentClient(client: NewClient, now: string): Promise<void> {
    const row = clientRow(client, now);
    await this.db
      .insertInto('oauth_clients')
      .values(row)
      .onConflict((conflict) =>
        conflict.column('id').doUpdateSet({
          name: row.name,
          redirect: row.redirect,
          scopes: row.scopes,
          grant_types: row.grant_types,
          updated_at: now,
        }),
      )
      .execute();
  }

  async update(id: string, values: ClientChanges, now: string): Promise<void> {
    await this.db
      .updateTable('oauth_clients')
      .set({
        name: values.name,
        redirect: values.redirect,
        ...(values.allowedScopes === undefined ? {} : { scopes: jsonList(values.allowedScopes) }),
        ...(values.grantTypes === undefined ? {} : { grant_types: jsonList(values.grantTypes) }),
        updated_at: now,
      })
      .where('id', '=', id)
      .execute();
  }

  async rotateSecret(id: string, rotation: SecretRotation, now: string): Promise<boolean> {
    const result = await this.db
      .updateTable('oauth_clients')
      .set({
        secret: rotation.secretHash,
        previous_secret: rotation.previous?.hash ?? null,
        previous_secret_expires_at: rotation.previous?.expiresAt ?? null,
        updated_at: now,
      })
      .where('id', '=', id)
      .where('secret', '=', rotation.replaces)
      .where('revoked', '=', 0)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) === 1;
  }

  forUser(userId: number): Promise<ClientRecord[]> {
    return this.#live('user_id', userId);
  }

  forOrganization(organizationId: number): Promise<ClientRecord[]> {
    return this.#live('organization_id', organizationId);
  }

  async #live(owner: 'user_id' | 'organization_id', id: number): Promise<ClientRecord[]> {
    const rows = await this.db
      .selectFrom('oauth_clients')
      .selectAll()
      .where(owner, '=', id)
      .where('revoked', '=', 0)
      .orderBy('created_at', 'desc')
      .orderBy('id')
      .execute();
    return rows.map(toClient);
  }

  lockOwner(userId: number): Promise<void> {
    return this.#lock(OWNER_LOCK_SPACE, userId);
  }

  lockOrganization(organizationId: number): Promise<void> {
    return this.#lock(ORGANIZATION_LOCK_SPACE, organizationId);
  }

  async #lock(space: number, id: number): Promise<void> {
    // SQLite: the application's one connection runs one transaction at a time, so there is
    // nothing to wait for. PostgreSQL: a lock on (the lock space, the owner) until commit.
    if (this.db.getExecutor().adapter instanceof SqliteAdapter) return;
    await sql`select pg_advisory_xact_lock(${space}, ${id})`.execute(this.db);
  }

  async personalAccessClient(): Promise<ClientRecord | undefined> {
    const row = await this.db
      .selectFrom('oauth_clients')
      .selectAll()
      .where('personal_access_client', '=', 1)
      .where('revoked', '=', 0)
      .orderBy('created_at', 'desc')
      .executeTakeFirst();
    return row ? toClient(row) : undefined;
  }

  async revoke(id: string, now: string): Promise<boolean> {
    const result = await this.db
      .updateTable('oauth_clients')
      .set({ revoked: 1, updated_at: now })
      .where('id', '=', id)
      .where('revoked', '=', 0)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) === 1;
  }
}

function clientRow(client: NewClient, now: string): OAuthClientRow {
  return {
    id: client.id,
    user_id: client.userId,
    name: client.name,
    secret: client.secretHash,
    redirect: client.redirect,
    personal_access_client: client.personalAccessClient ? 1 : 0,
    password_client: client.passwordClient ? 1 : 0,
    first_party: client.firstParty ? 1 : 0,
    scopes: jsonList(client.allowedScopes),
    grant_types: jsonList(client.grantTypes),
    resource_server: client.resourceServer ? 1 : 0,
    require_pushed_authorization_requests: client.requirePushedAuthorizationRequests ? 1 : 0,
    dpop_bound_access_tokens: client.dpopBoundAccessTokens ? 1 : 0,
    previous_secret: null,
    previous_secret_expires_at: null,
    revoked: 0,
    created_at: now,
    updated_at: now,
    last_used_at: null,
    organization_id: client.organizationId ?? null,
  };
}

function jsonList(list: readonly string[] | null): string | null {
  return list === null ? null : JSON.stringify(list);
}
