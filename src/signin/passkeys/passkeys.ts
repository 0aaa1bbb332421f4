import { createHmac, timingSafeEqual } from 'node:crypto';
import {
  type AuthenticationResponseJSON,
  type AuthenticatorTransport,
  generateAuthenticationOptions,
  generateRegistrationOptions,
  type PublicKeyCredentialCreationOptionsJSON,
  type PublicKeyCredentialRequestOptionsJSON,
  type RegistrationResponseJSON,
  verifyAuthenticationResponse,
  verifyRegistrationResponse,
} from '@simplewebauthn/server';
import type { Kysely } from 'kysely';
import type { User } from '../../auth/index.js';
import type { Clock } from '../../core/clock.js';
import type { SignInMethods } from '../sign-in-methods.js';
import type { RelyingParty } from './relying-party.js';
import type { PasskeyRow, PasskeysDatabase } from './tables.js';

export interface Passkey {
  id: number;
  name: string;
  createdAt: string;
  lastUsedAt: string | null;
  /** Synced to the user's other devices (a password manager, an account's keychain). */
  backedUp: boolean;
}

export type PasskeyCheck =
  | { outcome: 'accepted'; userId: number; passkey: Passkey }
  | { outcome: 'refused'; userId: number | null; reason: string };

const MAX_NAME = 100;
const TIMEOUT_MS = 120_000;

/**
 * A user's passkeys (WebAuthn credentials) through @simplewebauthn/server: options for the browser,
 * and the checks of what it answers — the challenge (the caller's, taken once from the session),
 * the origin and RP id, user verification, the signature, the signature counter (never back) and
 * the backup eligibility (never changed).
 */
export class Passkeys {
  constructor(
    private readonly db: Kysely<PasskeysDatabase>,
    private readonly clock: Clock,
    private readonly rp: RelyingParty,
    private readonly appKey: Uint8Array,
    private readonly methods: SignInMethods,
  ) {}

  async list(userId: number): Promise<Passkey[]> {
    const rows = await this.#rows().where('user_id', '=', userId).orderBy('id').execute();
    return rows.map(toPasskey);
  }

  async has(userId: number): Promise<boolean> {
    const row = await this.db
      .selectFrom('signin_passkeys')
      .select('id')
      .where('user_id', '=', userId)
      .executeTakeFirst();
    return row !== undefined;
  }

  /** Options for adding a passkey: resident (discoverable), user verification required, none of the user's own again. */
  async registrationOptions(user: User): Promise<PublicKeyCredentialCreationOptionsJSON> {
    const existing = await this.#rows().where('user_id', '=', user.id).execute();
    return generateRegistrationOptions({
      rpName: this.rp.name,
      rpID: this.rp.id,
      userID: this.userHandle(user.id),
      userName: user.email,
      userDisplayName: user.name,
      attestationType: 'none',
      timeout: TIMEOUT_MS,
      excludeCredentials: existing.map((row) => ({ id: row.credential_id, transports: transportsOf(row) })),
      authenticatorSelection: { residentKey: 'required', userVerification: 'required' },
    });
  }

  /** Checks the browser's answer to `registrationOptions` and stores the passkey; a reason when refused. */
  async register(
    user: User,
    response: RegistrationResponseJSON,
    challenge: string,
    name: string,
  ): Promise<{ passkey: Passkey } | { reason: string }> {
    let verified: Awaited<ReturnType<typeof verifyRegistrationResponse>>;
    try {
      verified = await verifyRegistrationResponse({
        response,
        expectedChallenge: challenge,
        expectedOrigin: this.rp.origins,
        expectedRPID: this.rp.id,
        requireUserVerification: true,
      });
    } catch (error) {
      return { reason: (error as Error).message };
    }
    if (!verified.verified) return { reason: 'The passkey could not be verified.' };
    const { credential, credentialDeviceType, credentialBackedUp } = verified.registrationInfo;
    const row = await this.db
      .insertInto('signin_passkeys')
      .values({
        user_id: user.id,
        credential_id: credential.id,
        public_key: Buffer.from(credential.publicKey).toString('base64url'),
        counter: credential.counter,
        transports: (credential.transports ?? []).join(','),
        device_type: credentialDeviceType,
        backed_up: credentialBackedUp ? 1 : 0,
        name: cleanName(name),
        created_at: this.clock.now().toISOString(),
      })
      .returningAll()
      .executeTakeFirstOrThrow();
    return { passkey: toPasskey(row) };
  }

  /** Options for signing in: any of the user's passkeys, or (no user yet) whichever the browser holds. */
  async authenticationOptions(userId?: number): Promise<PublicKeyCredentialRequestOptionsJSON> {
    const rows = userId === undefined ? [] : await this.#rows().where('user_id', '=', userId).execute();
    return generateAuthenticationOptions({
      rpID: this.rp.id,
      timeout: TIMEOUT_MS,
      userVerification: 'required',
      allowCredentials: rows.map((row) => ({ id: row.credential_id, transports: transportsOf(row) })),
    });
  }

  /**
   * Checks an assertion against the challenge taken from the session. With `userId` (the second
   * factor after a password) the passkey must be that user's. The counter is moved forward by one
   * conditional update, so an assertion whose counter another one already passed is refused.
   */
  async authenticate(
    response: AuthenticationResponseJSON,
    challenge: string,
    userId?: number,
  ): Promise<PasskeyCheck> {
    const row = await this.#rows().where('credential_id', '=', String(response.id)).executeTakeFirst();
    if (!row) return { outcome: 'refused', userId: userId ?? null, reason: 'unknown passkey' };
    if (userId !== undefined && row.user_id !== userId)
      return { outcome: 'refused', userId, reason: "another user's passkey" };
    const handle = response.response.userHandle;
    if (handle && !this.#sameHandle(handle, row.user_id))
      return { outcome: 'refused', userId: row.user_id, reason: 'user handle does not match' };
    const counter = Number(row.counter);
    let info: Awaited<ReturnType<typeof verifyAuthenticationResponse>>;
    try {
      info = await verifyAuthenticationResponse({
        response,
        expectedChallenge: challenge,
        expectedOrigin: this.rp.origins,
        expectedRPID: this.rp.id,
        requireUserVerification: true,
        credential: {
          id: row.credential_id,
          publicKey: Buffer.from(row.public_key, 'base64url'),
          counter,
          transports: transportsOf(row),
        },
      });
    } catch (error) {
      return { outcome: 'refused', userId: row.user_id, reason: (error as Error).message };
    }
    const { verified, authenticationInfo } = info;
    if (!verified) return { outcome: 'refused', userId: row.user_id, reason: 'signature not verified' };
    // Backup eligibility is fixed when the passkey is made (WebAuthn §6.1.3): a change means another authenticator.
    if (authenticationInfo.credentialDeviceType !== row.device_type)
      return { outcome: 'refused', userId: row.user_id, reason: 'backup eligibility changed' };
    const at = this.clock.now().toISOString();
    const moved = await this.db
      .updateTable('signin_passkeys')
      .set({
        counter: authenticationInfo.newCounter,
        backed_up: authenticationInfo.credentialBackedUp ? 1 : 0,
        last_used_at: at,
      })
      .where('id', '=', row.id)
      .where('counter', '=', row.counter)
      .executeTakeFirst();
    if (Number(moved.numUpdatedRows) !== 1 && authenticationInfo.newCounter > 0)
      return { outcome: 'refused', userId: row.user_id, reason: 'counter used by another sign-in' };
    return {
      outcome: 'accepted',
      userId: row.user_id,
      passkey: toPasskey({
        ...row,
        last_used_at: at,
        backed_up: authenticationInfo.credentialBackedUp ? 1 : 0,
      }),
    };
  }

  /** Removes one of the user's passkeys, unless it is their last way to sign in (`LastSignInMethod`). */
  async remove(userId: number, id: number): Promise<Passkey | undefined> {
    const row = await this.#rows().where('user_id', '=', userId).where('id', '=', id).executeTakeFirst();
    if (!row) return undefined;
    const removed = await this.methods.remove(userId, async (trx) => {
      const result = await trx
        .deleteFrom('signin_passkeys')
        .where('user_id', '=', userId)
        .where('id', '=', id)
        .executeTakeFirst();
      return Number(result.numDeletedRows) === 1;
    });
    return removed ? toPasskey(row) : undefined;
  }

  /** Renames one of the user's passkeys: its name before and after, or undefined when it is not theirs. */
  async rename(userId: number, id: number, name: string): Promise<{ from: string; to: string } | undefined> {
    const row = await this.#rows().where('user_id', '=', userId).where('id', '=', id).executeTakeFirst();
    if (!row) return undefined;
    const to = cleanName(name);
    await this.db
      .updateTable('signin_passkeys')
      .set({ name: to })
      .where('user_id', '=', userId)
      .where('id', '=', id)
      .execute();
    return { from: row.name, to };
  }

  /**
   * The WebAuthn user handle: an HMAC of the user's id under the application key, so authenticators
   * learn nothing about the account (WebAuthn §14.6.1) and no table is needed to find it again.
   */
  userHandle(userId: number): Uint8Array<ArrayBuffer> {
    return new Uint8Array(createHmac('sha256', this.appKey).update(`passkey-user:${userId}`).digest());
  }

  #sameHandle(handle: string, userId: number): boolean {
    const given = Buffer.from(handle, 'base64url');
    const expected = Buffer.from(this.userHandle(userId));
    return given.length === expected.length && timingSafeEqual(given, expected);
  }

  #rows() {
    return this.db.selectFrom('signin_passkeys').selectAll();
  }
}

function toPasskey(row: PasskeyRow): Passkey {
  return {
    id: row.id,
    name: row.name,
    createdAt: row.created_at,
    lastUsedAt: row.last_used_at,
    backedUp: Number(row.backed_up) === 1,
  };
}

function transportsOf(row: { transports: string }): AuthenticatorTransport[] {
  return row.transports ? (row.transports.split(',') as AuthenticatorTransport[]) : [];
}

/** A passkey's name as the account page shows it: one line, at most 100 characters, never empty. */
export function cleanName(name: string): string {
  const clean = name
    .replace(/\p{Cc}/gu, ' ')
    .replace(/\s+/g, ' ')
    .trim()
    .slice(0, MAX_NAME);
  return clean || 'Passkey';
}
