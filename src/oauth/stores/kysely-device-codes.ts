import type { Kysely } from 'kysely';
import type { Database } from '../../database/types.js';
import type { DeviceCodeRecord } from '../records.js';
import type { OAuthDeviceCodeRow } from '../tables.js';
import type { DeviceCodeStore } from './contracts.js';

function toDeviceCode(row: OAuthDeviceCodeRow): DeviceCodeRecord {
  return {
    id: row.id,
    userCodeHash: row.user_code,
    clientId: row.client_id,
    scopes: JSON.parse(row.scopes) as string[],
    status: row.status as DeviceCodeRecord['status'],
    userId: row.user_id,
    intervalSeconds: row.poll_interval,
    lastPolledAt: row.last_polled_at,
    accessTokenId: row.access_token_id,
    createdAt: row.created_at,
    expiresAt: row.expires_at,
  };
}

export class KyselyDeviceCodeStore implements DeviceCodeStore {
  constructor(private readonly db: Kysely<Database>) {}

  async insert(code: DeviceCodeRecord): Promise<void> {
    await this.db
      .insertInto('oauth_device_codes')
      .values({
        id: code.id,
        user_code: code.userCodeHash,
        client_id: code.clientId,
        scopes: JSON.stringify(code.scopes),
        status: code.status,
        user_id: code.userId,
        poll_interval: code.intervalSeconds,
        last_polled_at: code.lastPolledAt,
        access_token_id: code.accessTokenId,
        created_at: code.createdAt,
        expires_at: code.expiresAt,
      })
      .execute();
  }

  async find(id: string): Promise<DeviceCodeRecord | undefined> {
    const row = await this.db
      .selectFrom('oauth_device_codes')
      .selectAll()
      .where('id', '=', id)
      .executeTakeFirst();
    return row ? toDeviceCode(row) : undefined;
  }

  async findByUserCode(userCodeHash: string): Promise<DeviceCodeRecord | undefined> {
    const row = await this.db
      .selectFrom('oauth_device_codes')
      .selectAll()
      .where('user_code', '=', userCodeHash)
      .executeTakeFirst();
    return row ? toDeviceCode(row) : undefined;
  }

  async recordPoll(
    id: string,
    previous: string | null,
    polledAt: string,
    intervalSeconds: number,
  ): Promise<boolean> {
    const result = await this.db
      .updateTable('oauth_device_codes')
      .set({ last_polled_at: polledAt, poll_interval: intervalSeconds })
      .where('id', '=', id)
      .where('status', '=', 'pending')
      .where((eb) =>
        previous === null ? eb('last_polled_at', 'is', null) : eb('last_polled_at', '=', previous),
      )
      .executeTakeFirst();
    return Number(result.numUpdatedRows) === 1;
  }

  async decide(id: string, decision: 'approved' | 'denied', userId: number, now: string): Promise<boolean> {
    const result = await this.db
      .updateTable('oauth_device_codes')
      .set({ status: decision, user_id: userId })
      .where('id', '=', id)
      .where('status', '=', 'pending')
      .where('expires_at', '>', now)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) === 1;
  }

  async consume(id: string, accessTokenId: string): Promise<boolean> {
    const result = await this.db
      .updateTable('oauth_device_codes')
      .set({ status: 'redeemed', access_token_id: accessTokenId })
      .where('id', '=', id)
      .where('status', '=', 'approved')
      .executeTakeFirst();
    return Number(result.numUpdatedRows) === 1;
  }
}
