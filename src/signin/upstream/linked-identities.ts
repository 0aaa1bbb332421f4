import type { Kysely } from 'kysely';
import { isUniqueViolation } from '../../database/errors.js';
import type { SignInMethod } from '../sign-in-methods.js';
import type { UpstreamIdentity } from './upstream-client.js';

/** A user's link to an upstream provider: the provider's `sub` for them. */
export interface LinkedIdentity {
  provider: string;
  subject: string;
  email: string | null;
  createdAt: string;
  lastUsedAt: string | null;
}

interface IdentityRow {
  user_id: number;
  provider: string;
  subject: string;
  email: string | null;
  created_at: string;
  last_used_at: string | null;
}

const TABLE = 'signin_upstream_identities';

/** `signin_upstream_identities`: one row per user and provider, one user per provider `sub`. */
export class LinkedIdentities {
  constructor(private readonly db: Kysely<any>) {}

  /** The user linked to the provider's `subject`, if any. */
  async userFor(provider: string, subject: string): Promise<number | undefined> {
    const row = await this.db
      .selectFrom(TABLE)
      .select('user_id')
      .where('provider', '=', provider)
      .where('subject', '=', subject)
      .executeTakeFirst();
    return row ? Number(row.user_id) : undefined;
  }

  async forUser(userId: number): Promise<LinkedIdentity[]> {
    const rows = (await this.db
      .selectFrom(TABLE)
      .selectAll()
      .where('user_id', '=', userId)
      .orderBy('provider')
      .execute()) as IdentityRow[];
    return rows.map((row) => ({
      provider: row.provider,
      subject: row.subject,
      email: row.email,
      createdAt: row.created_at,
      lastUsedAt: row.last_used_at,
    }));
  }

  /**
   * Links the identity to the user; false when the provider's `sub` is linked to someone already,
   * or the user has another identity of that provider (the unique keys decide, also for two at once).
   */
  async link(
    userId: number,
    provider: string,
    identity: UpstreamIdentity,
    at: Date,
    db: Kysely<any> = this.db,
  ): Promise<boolean> {
    const now = at.toISOString();
    try {
      await db
        .insertInto(TABLE)
        .values({
          user_id: userId,
          provider,
          subject: identity.subject,
          email: identity.email,
          created_at: now,
          last_used_at: now,
        })
        .execute();
      return true;
    } catch (error) {
      if (isUniqueViolation(error)) return false;
      throw error;
    }
  }

  async used(provider: string, subject: string, at: Date): Promise<void> {
    await this.db
      .updateTable(TABLE)
      .set({ last_used_at: at.toISOString() })
      .where('provider', '=', provider)
      .where('subject', '=', subject)
      .execute();
  }

  /** Deletes the user's link to `provider` in `db` (a transaction); whether there was one. */
  async unlink(db: Kysely<any>, userId: number, provider: string): Promise<boolean> {
    const result = await db
      .deleteFrom(TABLE)
      .where('user_id', '=', userId)
      .where('provider', '=', provider)
      .executeTakeFirst();
    return Number(result.numDeletedRows) > 0;
  }

  /** Linked providers as sign-in methods. */
  readonly method: SignInMethod = {
    kind: 'upstream',
    count: async (db, userId) => {
      const row = await db
        .selectFrom(TABLE)
        .select((eb) => eb.fn.countAll().as('n'))
        .where('user_id', '=', userId)
        .executeTakeFirstOrThrow();
      return Number(row.n);
    },
  };
}
