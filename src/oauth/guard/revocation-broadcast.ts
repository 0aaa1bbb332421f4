import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import type { Logger } from '../../core/logger.js';

/** How long a publish may wait for a Redis that accepts it but does not answer. */
export const PUBLISH_TIMEOUT_MS = 2_000;

/**
 * A revoked access token, client (all its tokens) or API key; or a client whose record changed (a
 * rotated secret, new redirect URIs), which the other instances then read again.
 */
export type RevocationMessage = { type: 'token' | 'client' | 'key' | 'client-changed'; id: string };

const TYPES: ReadonlySet<unknown> = new Set<RevocationMessage['type']>([
  'token',
  'client',
  'key',
  'client-changed',
]);

interface Envelope extends RevocationMessage {
  origin: string;
}

/**
 * Tells the other instances about revocations and changed clients over Redis pub/sub, and hears
 * theirs, so every instance's cache refuses a revoked token, or a client's old secret, within
 * milliseconds (the issue asks for a second).
 * Redis being down never blocks a request or a revocation: publishing is fire-and-forget, and
 * when the subscriber reconnects after a drop the local caches are flushed, since messages sent
 * meanwhile are lost.
 */
export class RevocationBroadcast {
  readonly origin = randomUUID();
  readonly #publisher: Redis;
  readonly #subscriber: Redis;
  #ready: Promise<void> | undefined;
  #dropped = false;
  readonly #sending = new Set<Promise<void>>();

  constructor(
    url: string,
    readonly channel: string,
    private readonly handlers: { revoked(message: RevocationMessage): void; flush(): void },
    private readonly logger: Logger,
  ) {
    // Commands wait for a reconnect instead of failing: a revocation published while the link is
    // down is delivered when it is back, and the subscription is renewed by ioredis itself. A
    // publish to a Redis that hangs ends after `PUBLISH_TIMEOUT_MS`, so publishes never pile up.
    const options = { maxRetriesPerRequest: null } as const;
    this.#publisher = new Redis(url, { ...options, commandTimeout: PUBLISH_TIMEOUT_MS });
    this.#subscriber = new Redis(url, options);
    for (const connection of [this.#publisher, this.#subscriber]) {
      connection.on('error', (err: Error) =>
        this.logger.warn({ err: err.message }, 'Redis (token revocations)'),
      );
    }
    this.#subscriber.on('message', (_channel: string, text: string) => this.#receive(text));
    this.#subscriber.on('close', () => {
      this.#dropped = true;
    });
    this.#subscriber.on('ready', () => {
      if (!this.#dropped) return;
      this.#dropped = false;
      this.handlers.flush();
    });
  }

  /**
   * Subscribes; resolves once messages from other instances can arrive, or rejects after
   * `timeoutMs` (the subscription still completes whenever Redis answers).
   */
  start(timeoutMs = 2_000): Promise<void> {
    this.#ready ??= this.#subscriber.subscribe(this.channel).then(() => {
      this.#dropped = false;
    });
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`Redis did not answer within ${timeoutMs} ms`)), timeoutMs);
    });
    return Promise.race([this.#ready, timeout]).finally(() => clearTimeout(timer));
  }

  /** Fire-and-forget (nothing needs to wait for it); settles once sent, or failed and logged. */
  publish(message: RevocationMessage): Promise<void> {
    const envelope: Envelope = { ...message, origin: this.origin };
    const sent = this.#publisher.publish(this.channel, JSON.stringify(envelope)).then(
      () => undefined,
      (err: Error) => {
        const what = message.type === 'client-changed' ? 'a client change' : 'a token revocation';
        this.logger.warn({ err: err.message, ...message }, `Could not publish ${what} to Redis`);
      },
    );
    this.#sending.add(sent);
    void sent.finally(() => this.#sending.delete(sent));
    return sent;
  }

  /** Settles once the publishes under way have (each within `PUBLISH_TIMEOUT_MS`). */
  async settled(): Promise<void> {
    await Promise.all([...this.#sending]);
  }

  #receive(text: string): void {
    let envelope: Partial<Envelope>;
    try {
      envelope = JSON.parse(text) as Partial<Envelope>;
    } catch {
      return;
    }
    if (envelope.origin === this.origin || typeof envelope.id !== 'string') return;
    if (TYPES.has(envelope.type))
      this.handlers.revoked({ type: envelope.type as RevocationMessage['type'], id: envelope.id });
  }

  /** Closes both connections; never waits on a Redis that does not answer. */
  async close(): Promise<void> {
    this.#dropped = false;
    this.#subscriber.removeAllListeners('ready');
    await Promise.all([this.#subscriber, this.#publisher].map(closeConnection));
  }
}

async function closeConnection(connection: Redis): Promise<void> {
  if (connection.status !== 'ready') {
    connection.disconnect();
    return;
  }
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<void>((resolve) => {
    timer = setTimeout(resolve, 1_000);
  });
  await Promise.race([
    connection.quit().then(
      () => undefined,
      () => undefined,
    ),
    timeout,
  ]);
  clearTimeout(timer);
  connection.disconnect();
}
