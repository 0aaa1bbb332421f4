import type { Logger } from '../../core/logger.js';
import { RequestPathRedis } from '../../rate-limits/request-path-redis.js';

/**
 * RFC 9449 §11.1: a proof's `jti` is accepted once within the `iat` window. In memory for one
 * instance; with Redis, `SET NX EX` makes the first instance to see a `jti` the only one that
 * accepts it. A Redis that does not answer falls back to this instance's memory (logged).
 */
export class ProofReplay {
  readonly #seen = new Map<string, number>();
  #redis: RequestPathRedis | undefined;
  #connecting: Promise<void> | undefined;
  #sweepAt = 0;

  constructor(
    private readonly ttlSeconds: number,
    private readonly shared?: { url: string; prefix: string; logger: Logger },
  ) {}

  /** True the first time a key's `jti` is seen (per key thumbprint), false on a replay. */
  async firstUse(jkt: string, jti: string, nowMs: number): Promise<boolean> {
    const id = `${jkt}:${jti}`;
    if (!this.#remember(id, nowMs)) return false;
    const redis = await this.#connected();
    if (redis?.status !== 'ready') return true;
    try {
      return (await redis.set(id, '1', 'EX', this.ttlSeconds, 'NX')) === 'OK';
    } catch {
      return true;
    }
  }

  #remember(id: string, nowMs: number): boolean {
    if (nowMs >= this.#sweepAt) {
      for (const [key, until] of this.#seen) if (until <= nowMs) this.#seen.delete(key);
      this.#sweepAt = nowMs + 10_000;
    }
    const until = this.#seen.get(id);
    if (until !== undefined && until > nowMs) return false;
    this.#seen.set(id, nowMs + this.ttlSeconds * 1000);
    return true;
  }

  /** Connects on first use, waiting at most two seconds for Redis once; later calls do not wait. */
  async #connected(): Promise<RequestPathRedis | undefined> {
    const shared = this.shared;
    if (!shared?.url) return undefined;
    if (this.#redis === undefined) {
      const redis = new RequestPathRedis(shared.url, { keyPrefix: `${shared.prefix}dpop:` });
      redis.on('error', (err) => shared.logger.warn({ err: err.message }, 'Redis (DPoP replay)'));
      this.#redis = redis;
      this.#connecting = new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, 2000);
        redis.once('ready', () => {
          clearTimeout(timer);
          resolve();
        });
      });
    }
    await this.#connecting;
    return this.#redis;
  }

  close(): void {
    this.#redis?.disconnect();
  }
}
