import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import type { User } from './user.js';

/** What the `payload` column holds: the data, and which keys are flash data of which age. */
export interface SessionPayload {
  data: Record<string, unknown>;
  flash: { new: string[]; old: string[] };
}

/** 256 random bits, URL-safe: the cookie value and the CSRF token. */
export function randomToken(): string {
  return randomBytes(32).toString('base64url');
}

/** Constant-time comparison of two tokens. */
export function tokensMatch(expected: string, given: string): boolean {
  const a = Buffer.from(expected);
  const b = Buffer.from(given);
  return a.length === b.length && timingSafeEqual(a, b);
}

/**
 * The database holds only the SHA-256 of a session id, so a leaked `sessions` table cannot be
 * replayed as cookies (the same reasoning as for refresh tokens, DESIGN decision 2).
 */
export function hashSessionId(id: string): string {
  return createHash('sha256').update(id).digest('hex');
}

/**
 * One visitor's session. Changes mark it dirty; `startSession()` writes it after the handler only
 * then (and when its expiry needs sliding), so a plain page view costs one primary-key read.
 */
export class Session {
  #id: string;
  #csrfToken: string;
  #userId: number | null;
  readonly #payload: SessionPayload;
  /** The hash of the id this session had in the store when loaded; undefined for a new session. */
  storedHash: string | undefined;
  /** Hashes of ids to delete on save (regenerated or invalidated sessions). */
  readonly discarded: string[] = [];
  /** The user the session authenticates, hydrated by `startSession()` or set by `login()`. */
  user: User | undefined;
  /** When the store last wrote this session (ms since the epoch); undefined for a new session. */
  lastActivity: number | undefined;
  dirty = false;
  /** A new session is only worth storing once something reads its CSRF token or writes to it. */
  tokenRead = false;
  /** Where the current request comes from, stored with the session when it is written. */
  device: { ipAddress: string | null; userAgent: string | null } = { ipAddress: null, userAgent: null };

  constructor(init?: { id: string; csrfToken: string; userId: number | null; payload: SessionPayload }) {
    this.#id = init?.id ?? randomToken();
    this.#csrfToken = init?.csrfToken ?? randomToken();
    this.#userId = init?.userId ?? null;
    this.#payload = init?.payload ?? { data: {}, flash: { new: [], old: [] } };
  }

  get id(): string {
    return this.#id;
  }

  get csrfToken(): string {
    this.tokenRead = true;
    return this.#csrfToken;
  }

  /** Checks a submitted token without handing the token out (a rejected visitor gets no stored session). */
  verifyCsrfToken(given: string): boolean {
    return tokensMatch(this.#csrfToken, given);
  }

  get userId(): number | null {
    return this.#userId;
  }

  set userId(value: number | null) {
    if (value === this.#userId) return;
    this.#userId = value;
    this.dirty = true;
  }

  get payload(): SessionPayload {
    return this.#payload;
  }

  /** Whether this session has to be written (or deleted) after the request. */
  get mustSave(): boolean {
    return this.dirty || this.discarded.length > 0 || (this.storedHash === undefined && this.tokenRead);
  }

  /** The columns to store, without marking the CSRF token as read. */
  toRow(): {
    id: string;
    user_id: number | null;
    csrf_token: string;
    payload: string;
    ip_address: string | null;
    user_agent: string | null;
  } {
    return {
      id: hashSessionId(this.#id),
      user_id: this.#userId,
      csrf_token: this.#csrfToken,
      payload: JSON.stringify(this.#payload),
      ip_address: this.device.ipAddress,
      user_agent: this.device.userAgent,
    };
  }

  get<T = unknown>(key: string, fallback?: T): T | undefined {
    return key in this.#payload.data ? (this.#payload.data[key] as T) : fallback;
  }

  has(key: string): boolean {
    return key in this.#payload.data;
  }

  put(key: string, value: unknown): this {
    this.#payload.data[key] = value;
    this.dirty = true;
    return this;
  }

  forget(key: string): this {
    if (key in this.#payload.data) {
      delete this.#payload.data[key];
      this.dirty = true;
    }
    return this;
  }

  /** Reads and removes a value. */
  pull<T = unknown>(key: string, fallback?: T): T | undefined {
    const value = this.get<T>(key, fallback);
    this.forget(key);
    return value;
  }

  /** A value for this request's response and the next request only (status messages after a redirect). */
  flash(key: string, value: unknown): this {
    this.put(key, value);
    const { flash } = this.#payload;
    flash.old = flash.old.filter((k) => k !== key);
    if (!flash.new.includes(key)) flash.new.push(key);
    return this;
  }

  /**
   * Laravel's ageing: flash data set during the previous request stays readable in this one and is
   * dropped at the start of the next.
   */
  ageFlashData(): void {
    const { flash } = this.#payload;
    if (flash.old.length === 0 && flash.new.length === 0) return;
    for (const key of flash.old) delete this.#payload.data[key];
    flash.old = flash.new;
    flash.new = [];
    this.dirty = true;
  }

  /**
   * A new id (and by default a new CSRF token), keeping the data: call it whenever the privilege
   * level changes, so an id planted before login is worthless after it (session fixation).
   */
  regenerate(options: { csrfToken?: boolean } = {}): this {
    if (this.storedHash) this.discarded.push(this.storedHash);
    this.storedHash = undefined;
    this.#id = randomToken();
    if (options.csrfToken ?? true) this.#csrfToken = randomToken();
    this.dirty = true;
    return this;
  }

  /** Empties the session and gives it a new id and token; the old one is deleted on save. */
  invalidate(): this {
    this.#payload.data = {};
    this.#payload.flash = { new: [], old: [] };
    this.#userId = null;
    this.user = undefined;
    this.regenerate();
    // Nothing is left worth storing until the new session is used.
    this.dirty = false;
    this.tokenRead = false;
    return this;
  }
}
