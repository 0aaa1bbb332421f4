import type { MiddlewareHandler } from 'hono';
import { ConfigurationError } from '../core/errors.js';
import type { MiddlewareRef } from './route.js';

/** A named middleware; `scopes:a,b` calls the factory with `['a', 'b']`. */
export type MiddlewareFactory = (...params: string[]) => MiddlewareHandler;

/**
 * Middleware aliases and groups. A reference is resolved once, when routes are committed, so the
 * per-request cost is only the middleware itself.
 */
export class MiddlewareRegistry {
  readonly #aliases = new Map<string, MiddlewareFactory>();
  // Predefined so routes can name them before the modules that fill them have registered.
  readonly #groups = new Map<string, MiddlewareRef[]>([
    ['web', []],
    ['api', []],
  ]);

  alias(name: string, factory: MiddlewareFactory): this {
    this.#aliases.set(name, factory);
    return this;
  }

  group(name: string, refs: MiddlewareRef[]): this {
    this.#groups.set(name, [...refs]);
    return this;
  }

  /** Adds to a group (`web`, `api`), creating it if needed. */
  appendToGroup(name: string, ...refs: MiddlewareRef[]): this {
    this.#groups.set(name, [...(this.#groups.get(name) ?? []), ...refs]);
    return this;
  }

  prependToGroup(name: string, ...refs: MiddlewareRef[]): this {
    this.#groups.set(name, [...refs, ...(this.#groups.get(name) ?? [])]);
    return this;
  }

  hasAlias(name: string): boolean {
    return this.#aliases.has(name);
  }

  hasGroup(name: string): boolean {
    return this.#groups.has(name);
  }

  /** The members of a group, as declared. */
  groupMembers(name: string): readonly MiddlewareRef[] {
    return this.#groups.get(name) ?? [];
  }

  /** `scopes:a,b` → `{ name: 'scopes', params: ['a', 'b'] }`. */
  static parse(ref: string): { name: string; params: string[] } {
    const colon = ref.indexOf(':');
    if (colon < 0) return { name: ref, params: [] };
    const params = ref
      .slice(colon + 1)
      .split(',')
      .map((p) => p.trim())
      .filter(Boolean);
    return { name: ref.slice(0, colon), params };
  }

  resolve(refs: readonly MiddlewareRef[], seen: string[] = []): MiddlewareHandler[] {
    const out: MiddlewareHandler[] = [];
    for (const ref of refs) {
      if (typeof ref === 'function') {
        out.push(ref);
        continue;
      }
      const group = this.#groups.get(ref);
      if (group) {
        if (seen.includes(ref)) throw new ConfigurationError(`Middleware group "${ref}" includes itself.`);
        out.push(...this.resolve(group, [...seen, ref]));
        continue;
      }
      const { name, params } = MiddlewareRegistry.parse(ref);
      const factory = this.#aliases.get(name);
      if (!factory) throw new ConfigurationError(`Unknown middleware "${name}" (from "${ref}").`);
      out.push(factory(...params));
    }
    return out;
  }
}
