import type { Kysely } from 'kysely';
import type { Clock } from '../../core/clock.js';
import { ClockKey } from '../../core/keys.js';
import { isUniqueViolation } from '../../database/errors.js';
import { DbKey } from '../../database/keys.js';
import type { Database } from '../../database/types.js';
import type { ProcessedWebhook, WebhookObserver } from './webhook-outcome.js';

/** The claim was rolled back because the event's subscription has no row here yet. */
class NotKnownYet extends Error {}

/** What became of a delivery: claimed and applied, already claimed, or about a row not here yet. */
export type ClaimOutcome = 'claimed' | 'duplicate' | 'unknown';

/**
 * Which webhook events were handled. An event is claimed (inserted under a unique key) in the same
 * transaction that applies its state to the local rows, and released if the application's handler
 * fails afterwards, so a redelivery during or after a successful run is acknowledged without
 * applying anything twice, and a failed one can be retried.
 */
export class WebhookEvents {
  static inject = [DbKey, ClockKey] as const;
  /** Told of every webhook request once it is answered; an observer must not throw. */
  readonly observers: WebhookObserver[] = [];

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

  /**
   * Claims the event and runs `apply` over the same transaction: both commit, or neither does (a
   * crash in between loses nothing; the provider redelivers). `apply` returns false when the
   * event's subscription has no row yet: the claim is rolled back and the outcome is `unknown`.
   */
  async claimAndApply(
    provider: string,
    eventId: string,
    type: string,
    apply: (db: Kysely<Database>) => Promise<boolean>,
  ): Promise<ClaimOutcome> {
    if (await this.has(provider, eventId)) return 'duplicate';
    try {
      return await this.db.transaction().execute(async (trx) => {
        await trx
          .insertInto('billing_webhook_events')
          .values({ provider, event_id: eventId, type, received_at: this.clock.now().toISOString() })
          .execute();
        if (!(await apply(trx))) throw new NotKnownYet();
        return 'claimed' as const;
      });
    } catch (err) {
      if (err instanceof NotKnownYet) return 'unknown';
      // A concurrent delivery claimed it first (PostgreSQL waits for its commit, then refuses ours).
      if (isUniqueViolation(err)) return 'duplicate';
      throw err;
    }
  }

  processed(webhook: ProcessedWebhook): void {
    for (const observe of this.observers) observe(webhook);
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
