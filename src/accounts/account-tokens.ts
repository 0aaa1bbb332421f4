import { createHash, randomBytes } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Database } from '../database/types.js';
import type { AccountTokenRow, AccountTokensTable } from './tables.js';

type Purpose = AccountTokensTable['purpose'];

/** Why a link does not work: each gets its own clear answer. */
export type RedeemFailure = 'invalid' | 'expired' | 'used' | 'other-user';

export type Redeemed = { ok: true; token: AccountTokenRow } | { ok: false; reason: RedeemFailure };

/** SHA-256, hex: how tokens (and fingerprints) are stored. */
export const hash = (token: string) => createHash('sha256').update(token).digest('hex');

/**
 * The tokens of mailed links: 256 random bits, stored as SHA-256 (a fast hash is enough for a
 * secret that cannot be guessed), redeemed once, in one statement, so two clicks at once cannot
 * both succeed.
 */
export class AccountTokens {
  constructor(private readonly db: Kysely<Database>) {}

  async issue(
    userId: number,
    purpose: Purpose,
    email: string,
    now: Date,
    ttlMinutes: number,
    fingerprint: string | null = null,
    db: Kysely<Database> = this.db,
  ): Promise<string> {
    const token = randomBytes(32).toString('base64url');
    await db
      .insertInto('account_tokens')
      .values({
        user_id: userId,
        purpose,
        token_hash: hash(token),
        email,
        fingerprint,
        expires_at: new Date(now.getTime() + ttlMinutes * 60_000).toISOString(),
        created_at: now.toISOString(),
      })
      .execute();
    return token;
  }

  /**
   * The link's row while it still works, without using it up: what a GET of the link shows (mail
   * scanners open links; only the confirming POST redeems).
   */
  async check(purpose: Purpose, token: string, now: Date): Promise<Redeemed> {
    if (!/^[A-Za-z0-9_-]{43}$/.test(token)) return { ok: false, reason: 'invalid' };
    const row = await this.db
      .selectFrom('account_tokens')
      .selectAll()
      .where('token_hash', '=', hash(token))
      .where('purpose', '=', purpose)
      .executeTakeFirst();
    if (!row) return { ok: false, reason: 'invalid' };
    if (row.used_at) return { ok: false, reason: 'used' };
    if (row.expires_at <= now.toISOString()) return { ok: false, reason: 'expired' };
    return { ok: true, token: row };
  }

  /**
   * Uses the token up. `refuse` sees the row first and may refuse it (a link for another account,
   * an address that changed since) without using it up.
   */
  async redeem(
    purpose: Purpose,
    token: string,
    now: Date,
    refuse: (row: AccountTokenRow) => RedeemFailure | undefined | Promise<RedeemFailure | undefined> = () =>
      undefined,
    options: { usesUpTheOthers?: boolean } = {},
  ): Promise<Redeemed> {
    const found = await this.check(purpose, token, now);
    if (!found.ok) return found;
    const row = found.token;
    const refused = await refuse(row);
    if (refused) return { ok: false, reason: refused };
    const at = now.toISOString();
    // With `usesUpTheOthers`, one statement uses up every unused link of this purpose for the
    // user: of two links redeemed at once, the one whose statement comes second finds its own used.
    const taken = await this.db
      .updateTable('account_tokens')
      .set({ used_at: at })
      .where((eb) =>
        options.usesUpTheOthers
          ? eb.and([eb('user_id', '=', row.user_id), eb('purpose', '=', purpose)])
          : eb('id', '=', row.id),
      )
      .where('used_at', 'is', null)
      .returning('id')
      .execute();
    if (!taken.some((t) => t.id === row.id)) return { ok: false, reason: 'used' };
    return { ok: true, token: { ...row, used_at: at } };
  }

  /** Ends every unused link of this purpose (a password changed, an address verified). */
  async revoke(userId: number, purpose: Purpose, now: Date, db: Kysely<Database> = this.db): Promise<void> {
    await db
      .updateTable('account_tokens')
      .set({ used_at: now.toISOString() })
      .where('user_id', '=', userId)
      .where('purpose', '=', purpose)
      .where('used_at', 'is', null)
      .execute();
  }
}
