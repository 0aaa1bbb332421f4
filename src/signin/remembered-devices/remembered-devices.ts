import { createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import type { Context } from 'hono';
import { deleteCookie, getSignedCookie, setSignedCookie } from 'hono/cookie';
import type { Kysely } from 'kysely';
import type { DeviceMemory, User } from '../../auth/index.js';
import type { Clock } from '../../core/clock.js';
import type { RememberedDevicesDatabase } from './tables.js';

/** A remembered browser as the account page lists it. */
export interface RememberedDevice {
  id: number;
  userAgent: string | null;
  ipAddress: string | null;
  createdAt: string;
  lastUsedAt: string | null;
  expiresAt: string;
}

export interface RememberedDevicesOptions {
  days: number;
  cookie: string;
  /** Secure cookie (the app is served over https). */
  secure: boolean;
}

/** `<row id>.<secret>`: 43 base64url characters of secret. */
const VALUE_SHAPE = /^(\d{1,15})\.([A-Za-z0-9_-]{43})$/;

/**
 * "Remember this device" (a `DeviceMemory`): a cookie `<id>.<secret>`, signed with a key derived
 * from the app key, naming a row that holds only the SHA-256 of the secret — a stolen row cannot
 * make the cookie, a forged cookie fails its signature before any query. The row belongs to one
 * user and ends after `days`; deleting it revokes the browser.
 */
export class RememberedDevices implements DeviceMemory {
  readonly days: number;
  readonly #signingKey: string;

  constructor(
    private readonly db: Kysely<RememberedDevicesDatabase>,
    private readonly clock: Clock,
    appKey: Uint8Array,
    private readonly options: RememberedDevicesOptions,
  ) {
    this.days = options.days;
    this.#signingKey = createHmac('sha256', appKey).update('tollgate remembered device').digest('base64url');
  }

  async recognises(c: Context, user: User): Promise<boolean> {
    const value = await getSignedCookie(c, this.#signingKey, this.options.cookie);
    const parts = typeof value === 'string' ? VALUE_SHAPE.exec(value) : null;
    if (!parts) {
      if (value !== undefined) this.#forget(c);
      return false;
    }
    const now = this.clock.now().toISOString();
    const row = await this.db
      .selectFrom('signin_remembered_devices')
      .select(['id', 'secret_hash'])
      .where('id', '=', Number(parts[1]))
      .where('user_id', '=', user.id)
      .where('expires_at', '>', now)
      .executeTakeFirst();
    // Another user's device (a shared browser) is kept for them; only its own user skips a step.
    if (!row || !sameHash(row.secret_hash, hashSecret(parts[2]!))) return false;
    await this.db
      .updateTable('signin_remembered_devices')
      .set({ last_used_at: now })
      .where('id', '=', row.id)
      .execute();
    return true;
  }

  async remember(c: Context, user: User): Promise<void> {
    const now = this.clock.now();
    const secret = randomBytes(32).toString('base64url');
    const expires = new Date(now.getTime() + this.days * 86_400_000);
    const session = c.get('session');
    const row = await this.db
      .insertInto('signin_remembered_devices')
      .values({
        user_id: user.id,
        secret_hash: hashSecret(secret),
        user_agent: session?.device?.userAgent ?? null,
        ip_address: session?.device?.ipAddress ?? null,
        created_at: now.toISOString(),
        expires_at: expires.toISOString(),
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    await setSignedCookie(c, this.options.cookie, `${row.id}.${secret}`, this.#signingKey, {
      path: '/login',
      httpOnly: true,
      sameSite: 'Lax',
      secure: this.options.secure,
      expires,
    });
  }

  /** The user's remembered browsers still in force, newest first. */
  async list(userId: number): Promise<RememberedDevice[]> {
    const rows = await this.db
      .selectFrom('signin_remembered_devices')
      .selectAll()
      .where('user_id', '=', userId)
      .where('expires_at', '>', this.clock.now().toISOString())
      .orderBy('id', 'desc')
      .execute();
    return rows.map((row) => ({
      id: row.id,
      userAgent: row.user_agent,
      ipAddress: row.ip_address,
      createdAt: row.created_at,
      lastUsedAt: row.last_used_at,
      expiresAt: row.expires_at,
    }));
  }

  /** Forgets one of the user's browsers; false when it is not theirs (or already gone). */
  async revoke(userId: number, id: number): Promise<boolean> {
    const result = await this.db
      .deleteFrom('signin_remembered_devices')
      .where('id', '=', id)
      .where('user_id', '=', userId)
      .executeTakeFirst();
    return Number(result.numDeletedRows) > 0;
  }

  /** Forgets every browser of the user (a new password, 2FA off, other sessions ended). */
  async revokeAll(userId: number): Promise<number> {
    const result = await this.db
      .deleteFrom('signin_remembered_devices')
      .where('user_id', '=', userId)
      .executeTakeFirst();
    return Number(result.numDeletedRows);
  }

  #forget(c: Context): void {
    deleteCookie(c, this.options.cookie, { path: '/login', secure: this.options.secure });
  }
}

function hashSecret(secret: string): string {
  return createHash('sha256').update(secret).digest('hex');
}

function sameHash(a: string, b: string): boolean {
  return a.length === b.length && timingSafeEqual(Buffer.from(a), Buffer.from(b));
}
