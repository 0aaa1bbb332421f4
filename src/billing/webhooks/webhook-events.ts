import type { Kysely } from 'kysely';
import type { Clock } from '../../core/clock.js';
import { ClockKey } from '../../core/keys.js';
import { DbKey } from '../../database/keys.js';
import type { Database } from '../../database/types.js';

/**
 * Which webhook events were handled. An event is claimed (inserted under a unique key) before its
 * handler runs and released if the handler fails, so a redelivery during or after a successful
 * run is acknowledged without running the handler twice, and a failed one can be retried.
 */
export class WebhookEvents {
  static inject = [DbKey, ClockKey] as const;

  constructor(
    private readonly db: Kysely<Database>,
    private readonly clock: Clock,
  ) {}

  /** True when this call claimed the event; false when it was already claimed. */
  async claim(provider: string, eventId: string, type: string): Promise<boolean> {
    if (await this.has(provider, eventId)) return false;
    try {
      await this.db
        .insertInto('billing_webhook_events')
        .values({ provider, event_id: eventId, type, received_at: this.clock.now().toISOString() })
        .execute();
      return true;
    } catch (err) {
      // A concurrent delivery won the unique key between our read and our insert.
      if (await this.has(provider, eventId)) return false;
      throw err;
    }
  }

  async release(provider: string, eventId: string): Promise<void> {
    await this.db
      .deleteFrom('billing_webhook_events')
      .where('provider', '=', provider)
      .where('event_id', '=', eventId)
      .execute();
  }

  async has(provider: string, eventId: string): Promise<boolean> {
    const row = await this.db
      .selectFrom('billing_webhook_events')
      .select('id')
      .where('provider', '=', provider)
      .where('event_id', '=', eventId)
      .executeTakeFirst();
    return row !== undefined;
  }
}
