import type { Kysely } from 'kysely';
import type { Clock } from '../core/clock.js';
import type { TollgateConfig } from '../core/config.js';
import { ClockKey, ConfigKey } from '../core/keys.js';
import { DbKey } from '../database/keys.js';
import type { Database } from '../database/types.js';
import { hashSessionId, Session, type SessionPayload } from './session.js';
import type { UserRow } from './tables.js';

/** How often an unchanged session's expiry is slid forward: at most one write a minute per visitor. */
const TOUCH_AFTER_MS = 60_000;
/** One in this many new sessions also deletes expired rows, as Laravel's session lottery does. */
const PRUNE_ODDS = 50;

/** Sessions in the `sessions` table, keyed by the SHA-256 of their id. */
export class SessionStore {
  static inject = [DbKey, ClockKey, ConfigKey] as const;
  readonly lifetimeMs: number;

  constructor(
    private readonly db: Kysely<Database>,
    private readonly clock: Clock,
    config: TollgateConfig,
  ) {
    this.lifetimeMs = config.session.lifetimeMinutes * 60_000;
  }

  /**
   * The live session with this id and the row of its user, in one query (the session and user
   * lookups are on every signed-in page view); undefined when unknown or past its lifetime.
   */
  async load(id: string): Promise<{ session: Session; user: UserRow | undefined } | undefined> {
    const hash = hashSessionId(id);
    const row = await this.db
      .selectFrom('sessions')
      .leftJoin('users', 'users.id', 'sessions.user_id')
      .selectAll('users')
      .select([
        'sessions.user_id as session_user_id',
        'sessions.csrf_token as session_csrf_token',
        'sessions.payload as session_payload',
        'sessions.last_activity as session_last_activity',
        'sessions.expires_at as session_expires_at',
      ])
      .where('sessions.id', '=', hash)
      .executeTakeFirst();
    if (!row) return undefined;
    if (Date.parse(row.session_expires_at) <= this.clock.now().getTime()) {
      await this.db.deleteFrom('sessions').where('id', '=', hash).execute();
      return undefined;
    }
    const {
      session_user_id,
      session_csrf_token,
      session_payload,
      session_last_activity,
      session_expires_at: _,
      ...user
    } = row;
    const session = new Session({
      id,
      csrfToken: session_csrf_token,
      userId: session_user_id,
      payload: parsePayload(session_payload),
    });
    session.storedHash = hash;
    session.lastActivity = Date.parse(session_last_activity);
    return { session, user: user.id === null ? undefined : (user as UserRow) };
  }

  /** Whether a stored session should be rewritten only to slide its expiry. */
  needsTouch(session: Session): boolean {
    return (
      session.lastActivity !== undefined &&
      this.clock.now().getTime() - session.lastActivity >= TOUCH_AFTER_MS
    );
  }

  /** Writes what changed: deletes discarded ids, then updates or inserts. Returns whether a row was written. */
  async save(session: Session): Promise<boolean> {
    if (session.discarded.length > 0) {
      await this.db.deleteFrom('sessions').where('id', 'in', session.discarded).execute();
      session.discarded.length = 0;
    }
    const isNew = session.storedHash === undefined;
    if (!session.dirty && !(isNew && session.tokenRead)) return false;
    const now = this.clock.now();
    const times = {
      last_activity: now.toISOString(),
      expires_at: new Date(now.getTime() + this.lifetimeMs).toISOString(),
    };
    const { id, ...row } = session.toRow();
    if (isNew) {
      await this.db
        .insertInto('sessions')
        .values({ id, ...row, ...times })
        .execute();
      if (Math.floor(Math.random() * PRUNE_ODDS) === 0) await this.prune();
    } else {
      await this.db
        .updateTable('sessions')
        .set({ ...row, ...times })
        .where('id', '=', id)
        .execute();
    }
    session.storedHash = id;
    session.lastActivity = now.getTime();
    session.dirty = false;
    return true;
  }

  async destroy(session: Session): Promise<void> {
    await this.db.deleteFrom('sessions').where('id', '=', hashSessionId(session.id)).execute();
  }

  /** Deletes every session past its lifetime; returns how many. */
  async prune(): Promise<number> {
    const result = await this.db
      .deleteFrom('sessions')
      .where('expires_at', '<=', this.clock.now().toISOString())
      .executeTakeFirst();
    return Number(result.numDeletedRows);
  }

  /** Logs a user out everywhere (after a password change, say). */
  async destroyForUser(userId: number): Promise<void> {
    await this.db.deleteFrom('sessions').where('user_id', '=', userId).execute();
  }
}

function parsePayload(text: string): SessionPayload {
  try {
    const value = JSON.parse(text) as Partial<SessionPayload>;
    return {
      data: value.data && typeof value.data === 'object' ? value.data : {},
      flash: { new: value.flash?.new ?? [], old: value.flash?.old ?? [] },
    };
  } catch {
    return { data: {}, flash: { new: [], old: [] } };
  }
}
