import type { Context } from 'hono';
import type { Clock } from '../../core/clock.js';
import { ConfigurationError } from '../../core/errors.js';
import type { CredentialKinds } from './credential-kinds.js';
import type { CredentialKind } from './tables.js';
import { utcDay } from './usage-key.js';
import type { UsageMeter } from './usage-meter.js';

const DAY_MS = 86_400_000;

/**
 * Counts a request's usage under its user, client, credential, route and day. Nothing waits on
 * I/O except the first request of an OAuth client not seen before (is it a personal access client?).
 */
export class Metering {
  #day = '';
  #dayStart = 0;

  constructor(
    readonly meter: UsageMeter,
    private readonly kinds: CredentialKinds,
    private readonly clock: Clock,
  ) {}

  /**
   * Counts `units` of `meter` for the request's user (or `userId`, before `auth` has set the user);
   * a ConfigurationError when there is none (the route does not run `auth` first).
   */
  count(c: Context, meter: string, units: number, userId = c.get('user')?.id): void | Promise<void> {
    if (userId === undefined)
      throw new ConfigurationError('Metering needs an authenticated user: run it after "auth".');
    const kind = this.kinds.of(c.get('accessToken'));
    if (typeof kind === 'string') return this.#record(c, String(userId), kind, meter, units);
    return kind.then((k) => this.#record(c, String(userId), k, meter, units));
  }

  #record(c: Context, userId: string, kind: CredentialKind, meter: string, units: number): void {
    const token = c.get('accessToken');
    this.meter.record(
      {
        day: this.#today(),
        userId,
        clientId: token?.clientId ?? '',
        credentialKind: kind,
        credentialId: kind === 'cookie' ? '' : (token?.id ?? ''),
        route: c.get('routeLabel') ?? `${c.req.method} ${c.req.routePath}`,
        meter,
      },
      units,
    );
  }

  /** Today, UTC on the application clock; the string is made once a day. */
  #today(): string {
    const now = this.clock.now().getTime();
    if (now < this.#dayStart || now >= this.#dayStart + DAY_MS) {
      this.#dayStart = now - (now % DAY_MS);
      this.#day = utcDay(new Date(this.#dayStart));
    }
    return this.#day;
  }
}
