import { createHash, randomInt } from 'node:crypto';
import type { Kysely, Transaction } from 'kysely';
import type { Database } from '../../database/types.js';

export const RECOVERY_CODE_COUNT = 10;

/** `k7d2-mq4x-p9ta-3hzr`: 80 random bits in an alphabet without look-alikes (no 0/o, 1/l/i). */
const ALPHABET = 'abcdefghjkmnpqrstuvwxyz23456789';

function newCode(): string {
  const chars = Array.from({ length: 16 }, () => ALPHABET[randomInt(ALPHABET.length)]).join('');
  return chars.match(/.{4}/g)!.join('-');
}

/** The code as typed, with spaces, dashes and capitals ignored. */
export function normalizeRecoveryCode(code: string): string {
  return code.toLowerCase().replace(/[\s-]/g, '');
}

/**
 * SHA-256 is enough: each code carries ~79 random bits, too many to guess offline (the reasoning
 * of DESIGN decision 2); a slow hash would make checking one code against ten slow for no gain.
 */
function hashCode(code: string): string {
  return createHash('sha256').update(normalizeRecoveryCode(code)).digest('hex');
}

/** A user's recovery codes: shown once when made, stored as hashes, each usable once. */
export class RecoveryCodes {
  constructor(private readonly db: Kysely<Database>) {}

  /** Replaces the user's codes with ten new ones (inside the caller's transaction); returns them. */
  async replace(trx: Transaction<Database>, userId: number, at: Date): Promise<string[]> {
    const codes = Array.from({ length: RECOVERY_CODE_COUNT }, newCode);
    await trx.deleteFrom('account_recovery_codes').where('user_id', '=', userId).execute();
    const createdAt = at.toISOString();
    await trx
      .insertInto('account_recovery_codes')
      .values(codes.map((code) => ({ user_id: userId, code_hash: hashCode(code), created_at: createdAt })))
      .execute();
    return codes;
  }

  /**
   * Spends a code: one conditional update, so of two requests with the same code exactly one
   * gets the row. True when this call spent it.
   */
  async use(userId: number, code: string, at: Date): Promise<boolean> {
    const result = await this.db
      .updateTable('account_recovery_codes')
      .set({ used_at: at.toISOString() })
      .where('user_id', '=', userId)
      .where('code_hash', '=', hashCode(code))
      .where('used_at', 'is', null)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) === 1;
  }

  async remaining(userId: number): Promise<number> {
    const row = await this.db
      .selectFrom('account_recovery_codes')
      .select((eb) => eb.fn.countAll<number | string>().as('n'))
      .where('user_id', '=', userId)
      .where('used_at', 'is', null)
      .executeTakeFirst();
    return Number(row?.n ?? 0);
  }

  async removeAll(trx: Transaction<Database>, userId: number): Promise<void> {
    await trx.deleteFrom('account_recovery_codes').where('user_id', '=', userId).execute();
  }
}
