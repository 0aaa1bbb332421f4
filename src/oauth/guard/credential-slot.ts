import type { VerifiedToken } from './verified-token.js';

let slots = 0;

/**
 * A place on each verified credential for what a guard step computes once per credential (a
 * plan's binding, the usage keys) and reuses on its next requests: a field of the credential the
 * guard caches, lasting exactly as long as the credential does. Declare one per concept, at module
 * level.
 *
 * @example
 * const binding = new CredentialSlot<PlanBinding>();
 * const known = binding.get(token) ?? binding.set(token, bindPlan(token));
 */
export class CredentialSlot<T> {
  readonly #index = slots++;

  get(token: VerifiedToken): T | undefined {
    return token.slots[this.#index] as T | undefined;
  }

  set(token: VerifiedToken, value: T): T {
    token.slots[this.#index] = value;
    return value;
  }
}
