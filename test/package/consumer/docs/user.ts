// The user model docs/oauth.md imports as `./user.js`: the reference user with two more columns.
import { User } from 'tollgate';

export class AppUser extends User {
  declare handle: string;
  declare locale: string;
}
