import { HttpError } from '../core/errors.js';

/** Deleting an account was refused for something the user must settle first (422, the message says what). */
export class UserDeletionRefused extends HttpError {
  constructor(message: string) {
    super(422, message);
    this.name = 'UserDeletionRefused';
  }
}

/**
 * Runs before a user's account is deleted; throws `UserDeletionRefused` to stop it, or settles what
 * the user holds (ending their memberships, say) so that the deletion leaves nothing broken.
 */
export type UserDeletionGuard = (userId: number) => Promise<void>;

/**
 * The hooks a module beside accounts registers so that deleting an account keeps its own rules
 * (organizations: an organization keeps an owner). It lives in auth because both accounts and
 * those modules build on auth and may not import each other.
 */
export class UserDeletionGuards {
  readonly #guards: UserDeletionGuard[] = [];

  add(guard: UserDeletionGuard): this {
    this.#guards.push(guard);
    return this;
  }

  /** Runs the guards in the order they were added; the first refusal stops the rest. */
  async check(userId: number): Promise<void> {
    for (const guard of this.#guards) await guard(userId);
  }
}
