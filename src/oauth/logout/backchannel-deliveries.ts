import type { Kysely } from 'kysely';
import { DbKey } from '../../database/keys.js';
import type { Database } from '../../database/types.js';

/** A logout token on its way to a client's `backchannel_logout_uri`. */
export interface Delivery {
  id: string;
  clientId: string;
  uri: string;
  logoutToken: string;
  /** Attempts made so far. */
  attempts: number;
  nextAttemptAt: string;
}

/**
 * The stored back-channel logout deliveries (§2.8 retries survive a restart). An attempt first
 * claims its row by moving `next_attempt_at` from the value it read: of two instances (or a
 * resumed and a running attempt), only one sends.
 */
export class BackchannelDeliveries {
  static inject = [DbKey] as const;

  constructor(private readonly db: Kysely<Database>) {}

  async add(delivery: Omit<Delivery, 'attempts'>, at: string): Promise<Delivery> {
    await this.db
      .insertInto('oauth_backchannel_deliveries')
      .values({
        id: delivery.id,
        client_id: delivery.clientId,
        uri: delivery.uri,
        logout_token: delivery.logoutToken,
        attempts: 0,
        next_attempt_at: delivery.nextAttemptAt,
        created_at: at,
      })
      .execute();
    return { ...delivery, attempts: 0 };
  }

  /** Every stored delivery, to resume after a start. */
  async pending(): Promise<Delivery[]> {
    const rows = await this.db.selectFrom('oauth_backchannel_deliveries').selectAll().execute();
    return rows.map((row) => ({
      id: row.id,
      clientId: row.client_id,
      uri: row.uri,
      logoutToken: row.logout_token,
      attempts: row.attempts,
      nextAttemptAt: row.next_attempt_at,
    }));
  }

  /** Claims `delivery` for one attempt, its row held until `until`; false: another got it first. */
  async claim(delivery: Delivery, until: string): Promise<boolean> {
    const result = await this.db
      .updateTable('oauth_backchannel_deliveries')
      .set({ attempts: delivery.attempts + 1, next_attempt_at: until })
      .where('id', '=', delivery.id)
      .where('next_attempt_at', '=', delivery.nextAttemptAt)
      .executeTakeFirst();
    if (Number(result.numUpdatedRows) !== 1) return false;
    delivery.attempts += 1;
    delivery.nextAttemptAt = until;
    return true;
  }

  /** The next attempt of a claimed delivery, at `at`, with its (possibly re-signed) token. */
  async retryAt(delivery: Delivery, at: string, logoutToken: string): Promise<void> {
    await this.db
      .updateTable('oauth_backchannel_deliveries')
      .set({ next_attempt_at: at, logout_token: logoutToken })
      .where('id', '=', delivery.id)
      .where('next_attempt_at', '=', delivery.nextAttemptAt)
      .execute();
    delivery.nextAttemptAt = at;
    delivery.logoutToken = logoutToken;
  }

  /** Delivered, or given up. */
  async remove(id: string): Promise<void> {
    await this.db.deleteFrom('oauth_backchannel_deliveries').where('id', '=', id).execute();
  }
}
