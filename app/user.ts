import { User } from '../src/auth/user.js';
import { Billable } from '../src/billing/billable.js';
import { HasApiTokens } from '../src/oauth/personal/has-api-tokens.js';

/** The reference service's user: personal access tokens and subscription billing. */
export class AppUser extends Billable(HasApiTokens(User)) {}
