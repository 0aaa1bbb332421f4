import { HttpError } from '../core/errors.js';

export const LAST_OWNER = 'An organization needs at least one owner: make someone else an owner first.';

/** Why an organization operation was refused, with the status and a message a member can act on. */
export class OrganizationError extends HttpError {
  constructor(status: 403 | 404 | 409 | 422, message: string) {
    super(status, message);
    this.name = 'OrganizationError';
  }

  static notFound(): OrganizationError {
    return new OrganizationError(404, 'No such organization, or you are not a member of it.');
  }

  static forbidden(what: string): OrganizationError {
    return new OrganizationError(403, `Your role in this organization does not allow you to ${what}.`);
  }

  static lastOwner(): OrganizationError {
    return new OrganizationError(409, LAST_OWNER);
  }
}
