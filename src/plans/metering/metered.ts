import type { Context, MiddlewareHandler } from 'hono';
import { ConfigurationError } from '../../core/errors.js';
import type { Router } from '../../http/router.js';
import type { Metering } from './metering.js';

declare module 'hono' {
  interface ContextVariableMap {
    /** Set once the plan enforcement counted the request under `calls`, so `metered` does not count it twice. */
    callCounted: boolean | undefined;
  }
}

/** Each application's metering, by its router (every routed request carries it: no per-request cost). */
const meterings = new WeakMap<Router, Metering>();

export function useMetering(router: Router, metering: Metering): void {
  meterings.set(router, metering);
}

function meteringOf(c: Context): Metering {
  const metering = meterings.get(c.get('router'));
  if (!metering) throw new ConfigurationError('Metering needs plansProvider() to be registered.');
  return metering;
}

/**
 * Reports `units` of the application's own meter (`emails`, `tokens`) for the request's user and
 * credential, counted like the calls and flushed with them. Call it after `auth`.
 *
 * @example
 * await meter(c, 'emails', recipients.length);
 */
export function meter(c: Context, name: string, units = 1): void | Promise<void> {
  if (!/^[a-z][a-z0-9_.-]{0,63}$/.test(name)) throw new ConfigurationError(`Bad meter name "${name}".`);
  if (!Number.isSafeInteger(units) || units < 0)
    throw new ConfigurationError('Units are a whole number ≥ 0.');
  return meteringOf(c).count(c, name, units);
}

/**
 * `metered` counts each successful call (status below 400) under `calls`, unless the plan
 * enforcement already counted it; `metered:emails` counts one `emails` per call, `metered:emails,3`
 * three. Runs after `auth`.
 */
export function meteredMiddleware(args: readonly string[]): MiddlewareHandler {
  const [name = 'calls', unitsText = '1'] = args;
  const units = Number(unitsText);
  if (args.length > 2 || !/^[a-z][a-z0-9_.-]{0,63}$/.test(name) || !Number.isSafeInteger(units) || units < 1)
    throw new ConfigurationError('"metered" takes a meter and whole units: "metered", "metered:emails,3".');
  return async function metered(c, next) {
    await next();
    if (c.res.status >= 400) return;
    if (name === 'calls' && c.get('callCounted')) return;
    await meteringOf(c).count(c, name, units);
  };
}
