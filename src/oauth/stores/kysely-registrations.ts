import type { Kysely } from 'kysely';
import type { Database } from '../../database/types.js';
import { isRecordId } from '../records.js';
import type { ClientRegistration, RegistrationStore } from './contracts.js';

export class KyselyRegistrationStore implements RegistrationStore {
  constructor(private readonly db: Kysely<Database>) {}

  async insertInitialToken(hash: string, createdAt: string, expiresAt: string): Promise<void> {
    await this.db
      .insertInto('oauth_registration_tokens')
      .values({ id: hash, created_at: createdAt, expires_at: expiresAt })
      .execute();
  }

  async initialTokenExpiry(hash: string): Promise<string | undefined> {
    const row = await this.db
      .selectFrom('oauth_registration_tokens')
      .select('expires_at')
      .where('id', '=', hash)
      .executeTakeFirst();
    return row?.expires_at;
  }

  async insertClientToken(registration: ClientRegistration, createdAt: string): Promise<void> {
    await this.db
      .insertInto('oauth_client_registrations')
      .values({
        client_id: registration.clientId,
        token: registration.tokenHash,
        auth_method: registration.authMethod,
        created_at: createdAt,
      })
      .execute();
  }

  async findClientRegistration(clientId: string): Promise<ClientRegistration | undefined> {
    if (!isRecordId(clientId)) return undefined;
    const row = await this.db
      .selectFrom('oauth_client_registrations')
      .select(['token', 'auth_method'])
      .where('client_id', '=', clientId)
      .executeTakeFirst();
    return row && { clientId, tokenHash: row.token, authMethod: row.auth_method };
  }

  async deleteClientToken(clientId: string): Promise<boolean> {
    const result = await this.db
      .deleteFrom('oauth_client_registrations')
      .where('client_id', '=', clientId)
      .executeTakeFirst();
    return Number(result.numDeletedRows) === 1;
  }
}
