import type { User } from './user.js';

/** A new account was created (the registration page, a JSON sign-up, `tollgate user:create`). */
export class Registered {
  constructor(readonly user: User) {}
}
