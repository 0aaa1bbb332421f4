import type { Clock } from '../../core/clock.js';
import type { TollgateConfig } from '../../core/config.js';
import { ClockKey, ConfigKey, LoggerKey } from '../../core/keys.js';
import type { Logger } from '../../core/logger.js';
import { issuerOf } from '../jwt/access-token-signer.js';
import { checkProof, ProofRefused, withoutQuery } from './proof.js';
import { ProofReplay } from './replay.js';

/** RFC 9449 §11.1: how far a proof's `iat` may be from now, either way (seconds). */
export const PROOF_WINDOW_SECONDS = 60;

/**
 * DPoP proofs for the token endpoint and the guard: `checkProof` against the request, then the
 * `jti` replay check (shared through Redis when `REDIS_URL` is set). Refuses with `ProofRefused`.
 */
export class DpopProofs {
  static inject = [ConfigKey, ClockKey, LoggerKey] as const;
  readonly replay: ProofReplay;
  readonly #issuer: string;

  constructor(
    config: TollgateConfig,
    private readonly clock: Clock,
    logger: Logger,
  ) {
    this.#issuer = issuerOf(config);
    this.replay = new ProofReplay(2 * PROOF_WINDOW_SECONDS, {
      url: config.redis.url,
      prefix: config.redis.keyPrefix,
      logger,
    });
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
    const checked = await checkProof(proof, {
      method: request.method,
      urls: [reached, `${this.#issuer}${path}`],
      now: Math.floor(nowMs / 1000),
      windowSeconds: PROOF_WINDOW_SECONDS,
      accessToken: request.accessToken,
    });
    if (!(await this.replay.firstUse(checked.jkt, checked.jti, nowMs)))
      throw new ProofRefused('the proof was used before (jti)');
    return checked.jkt;
  }
}
