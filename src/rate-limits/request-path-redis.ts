import { type Command, Redis } from 'ioredis';

/** How long a command on a request's path may wait for Redis before its user falls back. */
export const REDIS_COMMAND_TIMEOUT_MS = 300;

/**
 * A Redis connection for work on a request's path (rate limits, DPoP replay). It never queues a
 * command while disconnected, and gives each command `REDIS_COMMAND_TIMEOUT_MS`. A command that
 * times out means a Redis that accepts connections but does not answer (busy, paused, swapped
 * out): the connection is dropped, and until Redis answers a ready check again it is not `ready`,
 * so its users fall back at once instead of waiting out a timeout per command.
 *
 * The timeout is ours, not ioredis's `commandTimeout`: when this process itself was not running
 * for longer than the timeout (CPU contention, a long synchronous task), the timer fires in the
 * loop's timers phase before the poll phase has read a reply already waiting in the socket.
 * So the verdict waits one `setImmediate` (which runs after the poll phase): a reply that arrived
 * during the stall settles the command first, and the stall is not taken for a Redis that hangs.
 */
export class RequestPathRedis extends Redis {
  readonly #timed = new WeakSet<Command>();

  constructor(url: string, options: { keyPrefix?: string } = {}) {
    super(url, { enableOfflineQueue: false, maxRetriesPerRequest: 1, ...options });
  }

  override sendCommand(command: Command, stream?: Parameters<Redis['sendCommand']>[1]): unknown {
    // A command resent after a reconnect keeps the deadline of its first send.
    if (!this.#timed.has(command)) {
      this.#timed.add(command);
      const timer = setTimeout(() => setImmediate(() => this.#timeOut(command)), REDIS_COMMAND_TIMEOUT_MS);
      const clear = () => clearTimeout(timer);
      command.promise.then(clear, clear);
    }
    return super.sendCommand(command, stream);
  }

  #timeOut(command: Command): void {
    if (command.isSettled) return;
    const err = new Error('Command timed out');
    command.reject(err);
    if (this.status !== 'ready') return;
    this.emit('error', err);
    this.disconnect(true);
  }
}
