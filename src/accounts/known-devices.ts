import { createHash } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Database } from '../database/types.js';
import type { RequestOrigin } from './events.js';

/** `first`: the user's first sign-in anywhere; `new`: a device not seen before for them; `known`. */
export type DeviceSighting = 'first' | 'new' | 'known';

/**
 * The devices each user signed in from, by a digest of the browser (user agent) and the address:
 * no cookie to keep, so clearing cookies does not make a known device new. Only the digest is
 * stored.
 */
export class KnownDevices {
  constructor(private readonly db: Kysely<Database>) {}

  /** Records a sign-in; two at once from one new device: one of them sees `new`. */
  async sighted(userId: number, origin: RequestOrigin, now: Date): Promise<DeviceSighting> {
    const at = now.toISOString();
    const fingerprint = createHash('sha256')
      .update(`${origin.userAgent ?? ''}\n${origin.ip ?? ''}`)
      .digest('hex');
    const inserted = await this.db
      .insertInto('account_devices')
      .values({ user_id: userId, fingerprint, first_seen_at: at, last_seen_at: at })
      .onConflict((oc) => oc.columns(['user_id', 'fingerprint']).doNothing())
      .returning('id')
      .executeTakeFirst();
    if (!inserted) {
      await this.db
        .updateTable('account_devices')
        .set({ last_seen_at: at })
        .where('user_id', '=', userId)
        .where('fingerprint', '=', fingerprint)
        .execute();
      return 'known';
    }
    const other = await this.db
      .selectFrom('account_devices')
      .select('id')
      .where('user_id', '=', userId)
      .where('id', '!=', inserted.id)
      .limit(1)
      .executeTakeFirst();
    return other ? 'new' : 'first';
  }
}
