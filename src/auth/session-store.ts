import { type CompiledQuery, type Kysely, sql } from 'kysely';
import type { Clock } from '../core/clock.js';
import type { TollgateConfig } from '../core/config.js';
import { EventDispatcher } from '../core/events.js';
import { ClockKey, ConfigKey } from '../core/keys.js';
import { DbKey } from '../database/keys.js';
import type { Database } from '../database/types.js';
import { SessionsEnded } from './events.js';
import { hashSessionId, Session, type SessionPayload } from './session.js';
import { type UsersTable, usersTableOf } from './table-users.js';
import type { SessionRow } from './tables.js';
import { type UserRecord, type UsersProvider, UsersProviderKey } from './users-provider.js';

/** How often an unchanged session's expiry is slid forward: at most one write a minute per visitor. */
const TOUCH_AFTER_MS = 60_000;
/** One in this many new sessions also deletes expired rows, as Laravel's session lottery does. */
const PRUNE_ODDS = 50;

/** The session columns a load reads, under a prefix beside the user's own columns when joined. */
const LOADED = ['user_id', 'csrf_token', 'payload', 'last_activity', 'expires_at'] as const;
const PREFIX = 'session__';

type LoadedRow = Pick<SessionRow, (typeof LOADED)[number]>;

/** Sessions in the `sessions` table, keyed by the SHA-256 of their id. */
export class SessionStore {
  static inject = [DbKey, ClockKey, ConfigKey, UsersProviderKey, EventDispatcher] as const;
  readonly lifetimeMs: number;
  /** Users in a table of this database: a load reads the session and its user in one statement. */
  readonly #usersTable: UsersTable | undefined;
  #joinedLoad: CompiledQuery<Record<string, unknown>> | undefined;

  constructor(
    private readonly db: Kysely<Database>,
    private readonly clock: Clock,
    config: TollgateConfig,
    private readonly users: UsersProvider,
    private readonly events: EventDispatcher,
  ) {
    this.lifetimeMs = config.session.lifetimeMinutes * 60_000;
    this.#usersTable = usersTableOf(users);
  }

  /** The live session with this id and its user's record; undefined when unknown or past its lifetime. */
  async load(id: string): Promise<{ session: Session; user: UserRecord | undefined } | undefined> {
    const hash = hashSessionId(id);
    const read = this.#usersTable
      ? await this.#loadJoined(hash, this.#usersTable)
      : await this.#loadAlone(hash);
    if (!read) return undefined;
    const { row } = read;
    if (Date.parse(row.expires_at) <= this.clock.now().getTime()) {
      await this.db.deleteFrom('sessions').where('id', '=', hash).execute();
      return undefined;
    }
    const session = new Session({
      id,
      csrfToken: row.csrf_token,
      userId: row.user_id,
      payload: parsePayload(row.payload),
    });
    session.storedHash = hash;
    session.lastActivity = Date.parse(row.last_activity);
    const user =
      row.user_id === null ? undefined : read.joined ? read.user : await this.users.findById(row.user_id);
    return { session, user };
  }

  async #loadAlone(hash: string): Promise<{ row: LoadedRow; joined: false } | undefined> {
    const row = await this.db.selectFrom('sessions').select(LOADED).where('id', '=', hash).executeTakeFirst();
    return row && { row, joined: false };
  }

  /** The session's row left-joined with its user's (absent when deleted), compiled once. */
  async #loadJoined(
    hash: string,
    users: UsersTable,
  ): Promise<{ row: LoadedRow; joined: true; user: UserRecord | undefined } | undefined> {
    const db = this.db as Kysely<any>;
    this.#joinedLoad ??= db
      .selectFrom('sessions as s')
      .leftJoin(`${users.table} as u`, `u.${users.id}`, 's.user_id')
      .selectAll('u')
      .select(LOADED.map((column) => `s.${column} as ${PREFIX}${column}`))
      .where('s.id', '=', '')
      .compile();
    const [joined] = (await db.executeQuery({ ...this.#joinedLoad, parameters: [hash] })).rows;
    if (!joined) return undefined;
    const row: Record<string, unknown> = {};
    const userRow: Record<string, unknown> = {};
    for (const [key, value] of Object.entries(joined)) {
      if (key.startsWith(PREFIX)) row[key.slice(PREFIX.length)] = value;
      else userRow[key] = value;
    }
    const user = userRow[users.id] == null ? undefined : users.record(userRow);
    return { row: row as LoadedRow, joined: true, user };
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

  /**
   * Writes the session's payload only while the stored row still holds `marker`; false when it no
   * longer does. One conditional update, so of two requests taking the same one-time value at once
   * (a double-clicked form) exactly one wins on either engine.
   */
  async claim(session: Session, marker: string): Promise<boolean> {
    if (session.storedHash === undefined) return true;
    const pattern = `%${marker.replace(/[!%_]/g, '!$&')}%`;
    const result = await this.db
      .updateTable('sessions')
      .set({ payload: JSON.stringify(session.payload) })
      .where('id', '=', session.storedHash)
      .where(sql<boolean>`${sql.ref('payload')} like ${pattern} escape '!'`)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) === 1;
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

  /** The user's live sessions, the latest used first (the account page's list). */
  forUser(userId: number): Promise<SessionRow[]> {
    return this.db
      .selectFrom('sessions')
      .selectAll()
      .where('user_id', '=', userId)
      .where('expires_at', '>', this.clock.now().toISOString())
      .orderBy('last_activity', 'desc')
      .execute();
  }

  /**
   * Ends every session of the user but `current` ("sign out other sessions"); returns how many.
   * Raises `SessionsEnded` with what they held.
   */
  async destroyOthers(userId: number, current: Session): Promise<number> {
    const keep = current.storedHash ?? hashSessionId(current.id);
    const rows = await this.db
      .deleteFrom('sessions')
      .where('user_id', '=', userId)
      .where('id', '!=', keep)
      .returning('payload')
      .execute();
    await this.#ended(userId, rows);
    return rows.length;
  }

  /** Logs a user out everywhere (after a password reset, say); raises `SessionsEnded`. */
  async destroyForUser(userId: number): Promise<void> {
    const rows = await this.db
      .deleteFrom('sessions')
      .where('user_id', '=', userId)
      .returning('payload')
      .execute();
    await this.#ended(userId, rows);
  }

  async #ended(userId: number, rows: { payload: string }[]): Promise<void> {
    if (rows.length > 0)
      await this.events.dispatch(
        new SessionsEnded(
          userId,
          rows.map((row) => parsePayload(row.payload).data),
        ),
      );
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
