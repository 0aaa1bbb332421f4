import type { Context } from 'hono';
import type { Child } from 'hono/jsx';
import type { User } from '../../auth/user.js';

/** One card of the account page that another module adds (linked sign-in providers, passkeys). */
export type AccountSection = (c: Context, user: User) => Child | Promise<Child>;

/**
 * The account page's cards from other modules, shown after two-factor authentication in the
 * order they were added (a singleton of `accountsProvider()`).
 */
export class AccountSections {
  readonly #sections: AccountSection[] = [];

  add(section: AccountSection): this {
    this.#sections.push(section);
    return this;
  }

  render(c: Context, user: User): Promise<Child[]> {
    return Promise.all(this.#sections.map((section) => section(c, user)));
  }
}
