import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import type { Logger } from '../core/logger.js';

/** How long a publish may wait for a Redis that accepts it but does not answer (as revocations'). */
const PUBLISH_TIMEOUT_MS = 2_000;

/**
 * Tells the other instances over Redis pub/sub that a holder's (a user's, an organization's)
 * subscription changed, so each one forgets that holder's plan at once instead of after `plans.cacheMs`. Never blocks a request:
 * publishing is fire-and-forget; after a dropped link every instance forgets every plan, since
 * messages sent meanwhile are lost.
 */
export class PlanBroadcast {
  readonly #origin = randomUUID();
  readonly #publisher: Redis;
  readonly #subscriber: Redis;
  #dropped = false;

  constructor(
    url: string,
    readonly channel: string,
    handlers: { forget(id: number, type?: string): void; clear(): void },
    private readonly logger: Logger,
  ) {
    // A publish to a Redis that hangs ends after `PUBLISH_TIMEOUT_MS`, so publishes never pile up.
    this.#publisher = new Redis(url, { maxRetriesPerRequest: null, commandTimeout: PUBLISH_TIMEOUT_MS });
    this.#subscriber = new Redis(url, { maxRetriesPerRequest: null });
    for (const connection of [this.#publisher, this.#subscriber])
      connection.on('error', (err: Error) => logger.warn({ err: err.message }, 'Redis (plan changes)'));
    this.#subscriber.on('message', (_channel: string, text: string) => {
      // `origin id` for a user, `origin id type` for another holder (an organization).
      const [origin, id, type = 'user'] = text.split(' ');
      if (origin !== this.#origin && /^\d+$/.test(id ?? '')) handlers.forget(Number(id), type);
    });
    this.#subscriber.on('close', () => {
      this.#dropped = true;
    });
    this.#subscriber.on('ready', () => {
      if (this.#dropped) handlers.clear();
      this.#dropped = false;
    });
  }

  /** Subscribes; rejects after `timeoutMs` (logged by the caller; the subscription goes on). */
  async start(timeoutMs = 2_000): Promise<void> {
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`Redis did not answer within ${timeoutMs} ms`)), timeoutMs);
    });
    await Promise.race([this.#subscriber.subscribe(this.channel), timeout]).finally(() =>
      clearTimeout(timer),
    );
  }

  /** Fire-and-forget (nothing needs to wait for it); settles once sent, or failed and logged. */
  publish(id: number, type = 'user'): Promise<void> {
    const message = type === 'user' ? `${this.#origin} ${id}` : `${this.#origin} ${id} ${type}`;
    return this.#publisher.publish(this.channel, message).then(
      () => undefined,
      (err: Error) => {
        this.logger.warn({ err: err.message }, 'Could not publish a plan change to Redis');
      },
    );
  }

  close(): void {
    this.#subscriber.removeAllListeners('ready');
    for (const connection of [this.#subscriber, this.#publisher]) connection.disconnect();
  }
}
