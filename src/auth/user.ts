import type { Container } from '../core/container.js';
import type { UserRow } from './tables.js';

/**
 * The user model. Applications extend it with mixins (`Billable`, `HasApiTokens`) and register
 * their class as the user model; rows are hydrated into it by `Users`. It holds the container so
 * that mixins reach their services without static globals.
 */
export class User {
  id!: number;
  name!: string;
  email!: string;
  password!: string;
  stripe_id!: string | null;
  braintree_id!: string | null;
  paypal_email!: string | null;
  card_brand!: string | null;
  card_last_four!: string | null;
  trial_ends_at!: string | null;
  created_at!: string;
  updated_at!: string;
  readonly #container: Container;

  constructor(container: Container, row: UserRow) {
    this.#container = container;
    Object.assign(this, row);
  }

  /** The application's services, for mixins. */
  get container(): Container {
    return this.#container;
  }

  /** Refreshes the attributes from a row (after an update). */
  fill(row: Partial<UserRow>): this {
    Object.assign(this, row);
    return this;
  }

  /** What reaches a client: never the password hash. */
  toJSON(): Record<string, unknown> {
    return {
      id: this.id,
      name: this.name,
      email: this.email,
      created_at: this.created_at,
      updated_at: this.updated_at,
    };
  }
}

export type UserModel<T extends User = User> = new (container: Container, row: UserRow) => T;
