import type { Context } from 'hono';
import type { Container } from '../core/container.js';
import { ConfigurationError } from '../core/errors.js';
import type { User } from './user.js';

/**
 * Finds the user a request authenticates as, or undefined. A guard may instead throw an
 * `HttpError` to reject the request in its own terms (401 with `WWW-Authenticate` for a bad token).
 */
export type Guard = (c: Context) => Promise<User | undefined> | User | undefined;

/**
 * The guards the `auth` and `guest` middleware consult by name. One per application: get it with
 * `Guards.of(app)` so that providers registered before or after the auth provider share it.
 *
 * @example
 * Guards.of(app).define('api', async (c) => tokenUser(c));
 */
export class Guards {
  readonly #guards = new Map<string, Guard>();

  static of(app: { container: Container }): Guards {
    if (!app.container.has(Guards)) app.container.instance(Guards, new Guards());
    return app.container.make(Guards);
  }

  define(name: string, guard: Guard): this {
    this.#guards.set(name, guard);
    return this;
  }

  has(name: string): boolean {
    return this.#guards.has(name);
  }

  get(name: string): Guard {
    const guard = this.#guards.get(name);
    if (!guard) {
      const known = [...this.#guards.keys()].join(', ') || 'none';
      throw new ConfigurationError(`Unknown auth guard "${name}" (defined: ${known}).`);
    }
    return guard;
  }

  names(): string[] {
    return [...this.#guards.keys()];
  }
}

/** The session guard: the user the session belongs to. */
export const sessionGuard: Guard = (c) => c.get('session')?.user;
