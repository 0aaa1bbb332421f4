import { type Kysely, sql } from 'kysely';
import type { User } from '../../auth/user.js';
import type { Clock } from '../../core/clock.js';
import type { EventDispatcher } from '../../core/events.js';
import type { Database } from '../../database/types.js';
import {
  RecoveryCodesRegenerated,
  type RequestOrigin,
  TwoFactorDisabled,
  TwoFactorEnabled,
  TwoFactorLocked,
} from '../events.js';
import { normalizeRecoveryCode, RecoveryCodes } from './recovery-codes.js';
import { seal, unseal } from './sealed.js';
import { newSeed, otpauthUri, stepOf } from './totp.js';

export interface TwoFactorOptions {
  /** The issuer shown in the authenticator app (the product name). */
  issuer: string;
  /** Wrong codes in a row (after a right password) that lock the second factor. */
  lockAfter: number;
  /** How long a lock lasts. */
  lockMinutes: number;
  /** Every user must have the app (`accounts.twoFactor.required: 'all'`). */
  requiredForAll?: boolean;
}

export interface TwoFactorState {
  /** Sign-in asks for a code. */
  enabled: boolean;
  /** Enrolment started, not yet confirmed with a code. */
  pending: boolean;
  recoveryCodesLeft: number;
}

/**
 * What a second-factor code came to. `replayed`: a right code of a step already used (or older).
 * `locked`: not checked, the factor is locked after too many wrong codes.
 */
export type CodeCheck =
  | { outcome: 'accepted'; method: 'otp' | 'recovery-code' }
  | { outcome: 'wrong' | 'replayed' }
  | { outcome: 'locked'; until: Date }
  | { outcome: 'not-enrolled' };

/**
 * A user's authenticator app (TOTP) and recovery codes. The seed is sealed with the application
 * key; each time step is accepted once, by one conditional update of `last_used_step`, so a code
 * cannot be replayed even against another instance.
 */
export class TwoFactor {
  readonly recoveryCodes: RecoveryCodes;
  #requiredWhen: ((user: User) => boolean | Promise<boolean>) | undefined;

  constructor(
    private readonly db: Kysely<Database>,
    private readonly key: Uint8Array,
    private readonly clock: Clock,
    private readonly events: EventDispatcher,
    private readonly options: TwoFactorOptions,
  ) {
    this.recoveryCodes = new RecoveryCodes(db);
  }

  /**
   * Requires the app of the users `rule` picks (a role, say), beside `required: 'all'`: they set
   * it up before reaching anything else, and cannot turn it off.
   *
   * @example
   * app.container.make(TwoFactor).requireWhen((user) => (user as Staff).role === 'admin');
   */
  requireWhen(rule: (user: User) => boolean | Promise<boolean>): this {
    this.#requiredWhen = rule;
    return this;
  }

  /** Whether `user` must have the app. */
  async requiredFor(user: User): Promise<boolean> {
    return !!this.options.requiredForAll || !!(await this.#requiredWhen?.(user));
  }

  /** Whether anyone may be required to have the app (the `web` group checks only then). */
  get mayBeRequired(): boolean {
    return !!this.options.requiredForAll || this.#requiredWhen !== undefined;
  }

  async state(userId: number): Promise<TwoFactorState> {
    const row = await this.row(userId);
    const enabled = !!row?.confirmed_at;
    return {
      enabled,
      pending: !!row && !enabled,
      recoveryCodesLeft: enabled ? await this.recoveryCodes.remaining(userId) : 0,
    };
  }

  async enabled(userId: number): Promise<boolean> {
    return !!(await this.row(userId))?.confirmed_at;
  }

  /**
   * Starts enrolment (or keeps the one started): a new seed, sealed, waiting for its first code.
   * Returns undefined when the app is already on.
   */
  async begin(user: User): Promise<{ seed: string; uri: string } | undefined> {
    const row = await this.row(user.id);
    if (row?.confirmed_at) return undefined;
    let seed = row ? this.open(user.id, row.sealed_secret) : undefined;
    if (!seed) {
      seed = newSeed();
      await this.db
        .insertInto('account_two_factor')
        .values({
          user_id: user.id,
          sealed_secret: this.seal(user.id, seed),
          created_at: this.clock.now().toISOString(),
        })
        // Two tabs starting at once: the first seed stays, both show it.
        .onConflict((oc) => oc.column('user_id').doNothing())
        .execute();
      return this.begin(user);
    }
    return { seed, uri: otpauthUri(seed, user.email, this.options.issuer) };
  }

  /**
   * Confirms enrolment with a code from the app: turns sign-in codes on and makes the recovery
   * codes, returned once here. Undefined when the code is wrong (or nothing was started).
   */
  async confirm(user: User, code: string, origin: RequestOrigin): Promise<string[] | undefined> {
    const row = await this.row(user.id);
    if (!row || row.confirmed_at) return undefined;
    const now = this.clock.now();
    const step = stepOf(this.open(user.id, row.sealed_secret), code.trim(), now);
    if (step === null) return undefined;
    const codes = await this.db.transaction().execute(async (trx) => {
      const confirmed = await trx
        .updateTable('account_two_factor')
        .set({ confirmed_at: now.toISOString(), last_used_step: step })
        .where('user_id', '=', user.id)
        .where('confirmed_at', 'is', null)
        .executeTakeFirst();
      if (Number(confirmed.numUpdatedRows) !== 1) return undefined;
      return this.recoveryCodes.replace(trx, user.id, now);
    });
    if (codes) await this.events.dispatch(new TwoFactorEnabled(user, origin, now));
    return codes;
  }

  /** Checks a sign-in's second factor: a code from the app, or a recovery code. */
  async check(user: User, code: string, origin: RequestOrigin): Promise<CodeCheck> {
    const row = await this.row(user.id);
    if (!row?.confirmed_at) return { outcome: 'not-enrolled' };
    const now = this.clock.now();
    if (row.locked_until && new Date(row.locked_until) > now)
      return { outcome: 'locked', until: new Date(row.locked_until) };
    const typed = code.trim();
    let result: CodeCheck;
    if (/^\d{6}$/.test(typed)) {
      const step = stepOf(this.open(user.id, row.sealed_secret), typed, now);
      result =
        step === null
          ? { outcome: 'wrong' }
          : (await this.useStep(user.id, step))
            ? { outcome: 'accepted', method: 'otp' }
            : { outcome: 'replayed' };
    } else {
      const spent =
        normalizeRecoveryCode(typed).length === 16 && (await this.recoveryCodes.use(user.id, typed, now));
      result = spent ? { outcome: 'accepted', method: 'recovery-code' } : { outcome: 'wrong' };
    }
    if (result.outcome === 'accepted') await this.resetFailures(user.id);
    else await this.countFailure(user, origin, now);
    return result;
  }

  /** New recovery codes, the old ones void; undefined when the app is not on. */
  async regenerate(user: User, origin: RequestOrigin): Promise<string[] | undefined> {
    if (!(await this.enabled(user.id))) return undefined;
    const now = this.clock.now();
    const codes = await this.db.transaction().execute((trx) => this.recoveryCodes.replace(trx, user.id, now));
    await this.events.dispatch(new RecoveryCodesRegenerated(user, origin, now));
    return codes;
  }

  /** Turns the app off and forgets its seed and the recovery codes. False when it was not on. */
  async disable(user: User, origin: RequestOrigin): Promise<boolean> {
    const removed = await this.db.transaction().execute(async (trx) => {
      await this.recoveryCodes.removeAll(trx, user.id);
      const result = await trx
        .deleteFrom('account_two_factor')
        .where('user_id', '=', user.id)
        .executeTakeFirst();
      return Number(result.numDeletedRows) === 1;
    });
    if (removed) await this.events.dispatch(new TwoFactorDisabled(user, origin, this.clock.now()));
    return removed;
  }

  /** Accepts `step` once: only a step later than the last one used moves `last_used_step`. */
  private async useStep(userId: number, step: number): Promise<boolean> {
    const result = await this.db
      .updateTable('account_two_factor')
      .set({ last_used_step: step })
      .where('user_id', '=', userId)
      .where((eb) => eb.or([eb('last_used_step', 'is', null), eb('last_used_step', '<', step)]))
      .executeTakeFirst();
    return Number(result.numUpdatedRows) === 1;
  }

  private async resetFailures(userId: number): Promise<void> {
    await this.db
      .updateTable('account_two_factor')
      .set({ failed_attempts: 0, locked_until: null })
      .where('user_id', '=', userId)
      .execute();
  }

  /**
   * One more wrong code; the one that reaches `lockAfter` locks the factor (a single conditional
   * update, so parallel wrong codes lock it, and mail the notice, once).
   */
  private async countFailure(user: User, origin: RequestOrigin, now: Date): Promise<void> {
    await this.db
      .updateTable('account_two_factor')
      .set({ failed_attempts: sql`failed_attempts + 1` })
      .where('user_id', '=', user.id)
      .execute();
    const until = new Date(now.getTime() + this.options.lockMinutes * 60_000);
    const locked = await this.db
      .updateTable('account_two_factor')
      .set({ failed_attempts: 0, locked_until: until.toISOString() })
      .where('user_id', '=', user.id)
      .where('failed_attempts', '>=', this.options.lockAfter)
      .executeTakeFirst();
    if (Number(locked.numUpdatedRows) === 1)
      await this.events.dispatch(new TwoFactorLocked(user, until, origin, now));
  }

  private row(userId: number) {
    return this.db
      .selectFrom('account_two_factor')
      .selectAll()
      .where('user_id', '=', userId)
      .executeTakeFirst();
  }

  private seal(userId: number, seed: string): string {
    return seal(this.key, seed, `totp:${userId}`);
  }

  private open(userId: number, sealed: string): string {
    return unseal(this.key, sealed, `totp:${userId}`);
  }
}
