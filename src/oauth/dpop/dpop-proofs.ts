import type { Clock } from '../../core/clock.js';
import type { TollgateConfig } from '../../core/config.js';
import { ClockKey, ConfigKey, LoggerKey } from '../../core/keys.js';
import type { Logger } from '../../core/logger.js';
import { AppEncryptionKey } from '../../kernel/app-key.js';
import { issuerOf } from '../jwt/access-token-signer.js';
import { DpopNonces } from './nonces.js';
import { checkProof, NonceRequired, ProofRefused, withoutQuery } from './proof.js';
import { ProofKeys } from './proof-key.js';
import { ProofReplay } from './replay.js';

/** RFC 9449 §11.1: how far a proof's `iat` may be from now, either way (seconds). */
export const PROOF_WINDOW_SECONDS = 60;

/**
 * DPoP proofs for the token endpoint and the guard: `checkProof` against the request, then the
 * `jti` replay check (shared through Redis when `REDIS_URL` is set). Refuses with `ProofRefused`, or
 * `NonceRequired` when nonces are on and the proof lacks a current one (RFC 9449 §8).
 */
export class DpopProofs {
  static inject = [ConfigKey, ClockKey, LoggerKey, AppEncryptionKey] as const;
  readonly replay: ProofReplay;
  /** Set when `oauth.dpopNonces` is enabled: every proof must carry one of these nonces. */
  readonly nonces: DpopNonces | undefined;
  readonly #issuer: string;
  readonly #keys = new ProofKeys();

  constructor(
    config: TollgateConfig,
    private readonly clock: Clock,
    logger: Logger,
    appKey: Uint8Array,
  ) {
    this.#issuer = issuerOf(config);
    const { enabled, lifetimeSeconds } = config.oauth.dpopNonces;
    this.nonces = enabled ? new DpopNonces(appKey, lifetimeSeconds) : undefined;
    this.replay = new ProofReplay(2 * PROOF_WINDOW_SECONDS, {
      url: config.redis.url,
      prefix: config.redis.keyPrefix,
      logger,
    });
  }

  /** The nonce to send in `DPoP-Nonce` now (§8.2: in every DPoP response), when nonces are on. */
  currentNonce(): string | undefined {
    return this.nonces?.current(this.clock.now().getTime());
  }

  /**
   * The proof's key thumbprint (`jkt`). `requestUrl` is the URL the request reached; the public
   * one (the configured application URL with the request's path) is accepted too, for a server
   * behind a proxy.
   */
  async check(
    proof: string | undefined,
    request: { method: string; url: string; accessToken?: string },
  ): Promise<string> {
    if (!proof) throw new ProofRefused('no DPoP header');
    const reached = withoutQuery(request.url);
    const path = reached === '' ? '' : new URL(reached).pathname;
    const nowMs = this.clock.now().getTime();
    const checked = await checkProof(
      proof,
      {
        method: request.method,
        urls: [reached, `${this.#issuer}${path}`],
        now: Math.floor(nowMs / 1000),
        windowSeconds: PROOF_WINDOW_SECONDS,
        accessToken: request.accessToken,
      },
      this.#keys,
    );
    // §8: checked before the jti is recorded, so the client's retry with the nonce is not a replay.
    if (this.nonces && !this.nonces.accepts(checked.nonce, nowMs)) {
      throw new NonceRequired(
        this.nonces.current(nowMs),
        checked.nonce === undefined ? 'no nonce' : 'stale or unknown nonce',
      );
    }
    if (!(await this.replay.firstUse(checked.jkt, checked.jti, nowMs)))
      throw new ProofRefused('the proof was used before (jti)');
    return checked.jkt;
  }
}
