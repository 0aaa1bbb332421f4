import type { VerifiedToken } from '../oauth/index.js';
import type { PlanHolderType } from './plan-resolver.js';

/**
 * The billable type of an organization (the `organizations` module registers its billing under
 * it): a credential acting for an organization counts against that organization's plan.
 */
export const ORGANIZATION: PlanHolderType = 'organization';

/** Whose plan a credential's calls count against, and the subject its counters are kept under. */
export interface PlanHolder {
  readonly type: PlanHolderType;
  readonly id: number;
  /** The rate-limit and quota subject: the user id, `organization:<id>` for an organization. */
  readonly subject: string;
}

/**
 * The organization the credential acts for (its `org_id`: an organization's API key or client, a
 * member's token for it), else the user: two members' keys for one organization share its budget,
 * while the same member's personal token keeps their own.
 */
export function planHolderOf(
  token: Pick<VerifiedToken, 'organizationId'> | undefined,
  userId: number,
): PlanHolder {
  const organizationId = token?.organizationId ?? null;
  return organizationId === null
    ? { type: 'user', id: userId, subject: String(userId) }
    : { type: ORGANIZATION, id: organizationId, subject: `${ORGANIZATION}:${organizationId}` };
}
