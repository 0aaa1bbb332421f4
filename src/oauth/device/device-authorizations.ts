import type { Clock } from '../../core/clock.js';
import type { TollgateConfig } from '../../core/config.js';
import { ClockKey, ConfigKey } from '../../core/keys.js';
import { isUniqueViolation } from '../../database/errors.js';
import type { ClientRecord, DeviceCodeRecord } from '../records.js';
import { hashSecret, randomSecret } from '../secrets.js';
import { type OAuthStore, OAuthStoreKey } from '../stores/contracts.js';
import { generateUserCode, normalizeUserCode, userCodeHash } from './user-code.js';

/** A new device authorization request: the two codes in plain text (shown once) and the stored record. */
export interface StartedDeviceAuthorization {
  deviceCode: string;
  userCode: string;
  record: DeviceCodeRecord;
}

/** A user code collides with a live one about once in 10^10: a few fresh draws always find a free one. */
const USER_CODE_DRAWS = 5;

/**
 * Device authorization requests (RFC 8628): started by a client, answered by a user who types the
 * user code on the verification page, redeemed by the device at the token endpoint.
 */
export class DeviceAuthorizations {
  static inject = [OAuthStoreKey, ClockKey, ConfigKey] as const;

  constructor(
    private readonly store: OAuthStore,
    private readonly clock: Clock,
    private readonly config: TollgateConfig,
  ) {}

  /** §3.1–3.2: a device code (256 bits) and a user code, both stored only as digests. */
  async start(client: ClientRecord, scopes: readonly string[]): Promise<StartedDeviceAuthorization> {
    const { deviceCodeTtlSeconds, deviceCodePollIntervalSeconds } = this.config.oauth;
    const now = this.clock.now();
    const deviceCode = randomSecret();
    for (let draw = 1; ; draw++) {
      const userCode = generateUserCode();
      const record: DeviceCodeRecord = {
        id: hashSecret(deviceCode),
        userCodeHash: userCodeHash(normalizeUserCode(userCode)!),
        clientId: client.id,
        scopes: [...scopes],
        status: 'pending',
        userId: null,
        intervalSeconds: deviceCodePollIntervalSeconds,
        lastPolledAt: null,
        accessTokenId: null,
        createdAt: now.toISOString(),
        expiresAt: new Date(now.getTime() + deviceCodeTtlSeconds * 1000).toISOString(),
      };
      try {
        await this.store.deviceCodes.insert(record);
        return { deviceCode, userCode, record };
      } catch (err) {
        if (!isUniqueViolation(err) || draw >= USER_CODE_DRAWS) throw err;
      }
    }
  }

  /** The request a typed user code names, if it still waits for an answer. */
  async pending(typed: string): Promise<DeviceCodeRecord | undefined> {
    const canonical = normalizeUserCode(typed);
    if (canonical === undefined) return undefined;
    const record = await this.store.deviceCodes.findByUserCode(userCodeHash(canonical));
    if (record?.status !== 'pending') return undefined;
    return record.expiresAt > this.clock.now().toISOString() ? record : undefined;
  }

  /** The user's answer; false when the request was answered before or has expired. */
  decide(id: string, decision: 'approved' | 'denied', userId: number): Promise<boolean> {
    return this.store.deviceCodes.decide(id, decision, userId, this.clock.now().toISOString());
  }
}
