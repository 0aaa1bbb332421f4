import type { Context } from 'hono';
import { type Clock, millis } from '../../core/clock.js';
import { ConfigurationError } from '../../core/errors.js';
import { CredentialSlot, type VerifiedToken } from '../../oauth/index.js';
import type { CredentialKinds } from './credential-kinds.js';
import type { CredentialKind } from './tables.js';
import { type UsageKey, usageKeyString, utcDay } from './usage-key.js';
import type { PendingCount, UsageMeter } from './usage-meter.js';

const DAY_MS = 86_400_000;

/** Each credential's usage keys by route and meter, made once a day: a request builds no key. */
const knownKeys = new CredentialSlot<Map<string, Map<string, KnownKey>>>();

interface KnownKey {
  day: string;
  userId: string | number;
  key: UsageKey;
  id: string;
  /** Where the last units went, until the meter flushes it. */
  count: PendingCount | undefined;
}

/**
 * Counts a request's usage under its user, organization (the credential's `org_id`), client,
 * credential, route and day. Nothing waits on
 * I/O except the first request of an OAuth client not seen before (is it a personal access client?).
 */
export class Metering {
  #day = '';
  #dayStart = 0;
  readonly #now: () => number;

  constructor(
    readonly meter: UsageMeter,
    private readonly kinds: CredentialKinds,
    clock: Clock,
  ) {
    this.#now = millis(clock);
  }

  /**
   * Counts `units` of `meter` for the request's user (or `userId`, before `auth` has set the user);
   * a ConfigurationError when there is none (the route does not run `auth` first). `now`: the
   * application clock's milliseconds, when the caller has them.
   */
  count(
    c: Context,
    meter: string,
    units: number,
    userId = c.get('user')?.id,
    now = this.#now(),
  ): void | Promise<void> {
    if (userId === undefined)
      throw new ConfigurationError('Metering needs an authenticated user: run it after "auth".');
    const token = c.get('accessToken');
    const route = c.get('routeLabel') ?? `${c.req.method} ${c.req.routePath}`;
    const day = this.#today(now);
    const known = token && knownKeys.get(token)?.get(route)?.get(meter);
    if (known !== undefined && known.day === day && known.userId === userId) {
      if (known.count === undefined || !this.meter.add(known.count, units))
        known.count = this.meter.record(known.key, units, known.id);
      return;
    }
    const kind = this.kinds.of(token);
    if (typeof kind === 'string') return this.#record(token, userId, kind, route, meter, day, units);
    return kind.then((k) => this.#record(token, userId, k, route, meter, day, units));
  }

  #record(
    token: VerifiedToken | undefined,
    userId: string | number,
    kind: CredentialKind,
    route: string,
    meter: string,
    day: string,
    units: number,
  ): void {
    const key: UsageKey = {
      day,
      userId: String(userId),
      organizationId: token?.organizationId == null ? '' : String(token.organizationId),
      clientId: token?.clientId ?? '',
      credentialKind: kind,
      credentialId: kind === 'cookie' ? '' : (token?.id ?? ''),
      route,
      meter,
    };
    const id = usageKeyString(key);
    const count = this.meter.record(key, units, id);
    if (token !== undefined && kind !== 'cookie') {
      const routes = knownKeys.get(token) ?? knownKeys.set(token, new Map<string, Map<string, KnownKey>>());
      const meters = routes.get(route) ?? new Map<string, KnownKey>();
      meters.set(meter, { day, userId, key, id, count });
      routes.set(route, meters);
    }
  }

  /** Today, UTC on the application clock; the string is made once a day. */
  #today(now: number): string {
    if (now < this.#dayStart || now >= this.#dayStart + DAY_MS) {
      this.#dayStart = now - (now % DAY_MS);
      this.#day = utcDay(new Date(this.#dayStart));
    }
    return this.#day;
  }
}
