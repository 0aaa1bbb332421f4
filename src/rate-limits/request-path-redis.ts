import { type Command, Redis } from 'ioredis';

/** How long a command on a request's path may wait for Redis before its user falls back. */
export const REDIS_COMMAND_TIMEOUT_MS = 300;

const TIMED_OUT = 'Command timed out';

/**
 * A Redis connection for work on a request's path (rate limits, DPoP replay). It never queues a
 * command while disconnected, and gives each command `REDIS_COMMAND_TIMEOUT_MS`. A command that
 * times out means a Redis that accepts connections but does not answer (busy, paused, swapped
 * out): the connection is dropped, and until Redis answers a ready check again it is not `ready`,
 * so its users fall back at once instead of waiting out a timeout per command.
 */
export class RequestPathRedis extends Redis {
  constructor(url: string, options: { keyPrefix?: string } = {}) {
    super(url, {
      enableOfflineQueue: false,
      maxRetriesPerRequest: 1,
      commandTimeout: REDIS_COMMAND_TIMEOUT_MS,
      ...options,
    });
  }

  override sendCommand(command: Command, stream?: Parameters<Redis['sendCommand']>[1]): unknown {
    const sent = super.sendCommand(command, stream);
    command.promise.catch((err: unknown) => {
      if (err instanceof Error && err.message === TIMED_OUT && this.status === 'ready') {
        this.emit('error', err);
        this.disconnect(true);
      }
    });
    return sent;
  }
}
