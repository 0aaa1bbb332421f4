import { Billable, HasApiTokens, User } from 'tollgate';

/** The reference service's user: personal access tokens and subscription billing. */
export class AppUser extends Billable(HasApiTokens(User)) {}
