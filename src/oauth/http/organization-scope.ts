import type { Context } from 'hono';
import { ValidationError } from '../../core/errors.js';

const ID = /^[1-9]\d{0,15}$/;

/**
 * The organization a credential JSON API acts in: its `organization_id` query parameter (the
 * dashboard's forms post to the same URL). Undefined: the user's own credentials. 422 for a value
 * that cannot be an organization's id.
 */
export function organizationScope(c: Context): number | undefined {
  const value = c.req.query('organization_id');
  if (value === undefined || value === '') return undefined;
  if (!ID.test(value))
    throw new ValidationError({ organization_id: ['The organization id must be a positive whole number.'] });
  return Number(value);
}
