import type { Container } from '../core/container.js';
import { ValidationError } from '../core/errors.js';
import type { GuardStep } from './guard/guard-steps.js';

/**
 * Of the scopes requested for a user's new credential, those it may carry; `organizationId`: the
 * organization the credential will act for (its `org_id`), null for a personal one.
 */
export type IssuancePolicy = (
  userId: number,
  names: readonly string[],
  organizationId: number | null,
) => Promise<readonly string[]>;

/**
 * What a user does with an organization's credentials: `view` its keys and clients (and their own
 * tokens for it), `manage` them (create or revoke its API keys and clients), `use` it (a
 * personal access token carrying its `org_id`).
 */
export type OrganizationCredentialAction = 'view' | 'manage' | 'use';

/**
 * Allows the action or throws an `HttpError`: 404 when the user is not a member (whether the
 * organization exists is not said), 403 saying what their role does not allow. `locked`: the
 * membership is read locked, so a change to it in progress (a removal) is waited for.
 */
export type OrganizationAccess = (
  userId: number,
  organizationId: number,
  action: OrganizationCredentialAction,
  options?: { locked?: boolean },
) => Promise<void>;

/**
 * The seams oauth declares for the modules above it (plans; later organizations, sign-in): one per
 * application, `OAuthHooks.of(app)`. A module adds to them in its provider's `register`; oauth
 * runs them where they apply and knows nothing of who added them.
 *
 * @example
 * const hooks = OAuthHooks.of(app);
 * hooks.issuancePolicies.push(async (userId, names) => names.filter((n) => n !== 'admin'));
 * hooks.guardSteps.push((c, user, token) => token);
 */
export class OAuthHooks {
  /**
   * At issuance — the token endpoint, personal access tokens, API keys, also from the CLI: each
   * policy keeps what it allows of what the one before kept. The token endpoint issues the rest
   * (RFC 6749 §3.3: a token may carry fewer scopes); a user's own credentials refuse it (422).
   */
  readonly issuancePolicies: IssuancePolicy[] = [];
  /** Run by the `api` guard on every request it authenticates, in order (`GuardStep`). */
  readonly guardSteps: GuardStep[] = [];
  /**
   * Who may create, list and revoke an organization's credentials (set by the organizations
   * module). Unset, a credential cannot belong to an organization (422 on `organization_id`).
   */
  organizationAccess: OrganizationAccess | undefined;

  static of(app: { container: Container }): OAuthHooks {
    if (!app.container.has(OAuthHooks)) app.container.instance(OAuthHooks, new OAuthHooks());
    return app.container.make(OAuthHooks);
  }

  /** Whether an issuance policy applies. */
  get restrictsIssuance(): boolean {
    return this.issuancePolicies.length > 0;
  }

  /** Allows `action` on the organization's credentials, or throws (see `organizationAccess`). */
  async checkOrganization(
    userId: number,
    organizationId: number,
    action: OrganizationCredentialAction,
    options: { locked?: boolean } = {},
  ): Promise<void> {
    if (this.organizationAccess === undefined)
      throw new ValidationError({ organization_id: ['Organizations are not enabled.'] });
    await this.organizationAccess(userId, organizationId, action, options);
  }

  /**
   * The check again, once a credential acting for the organization is stored, with the membership
   * locked: a removal in progress is waited for. Refused, `undo` ends the credential and the
   * refusal is thrown. Allowed, the credential was stored before any removal took the membership,
   * and a removal ends the member's tokens after its delete, in its transaction, so it sees this
   * one (a check before the insert alone could pass, then lose to a removal that commits first).
   */
  async confirmOrganization(
    userId: number,
    organizationId: number,
    action: OrganizationCredentialAction,
    undo: () => Promise<unknown>,
  ): Promise<void> {
    try {
      await this.checkOrganization(userId, organizationId, action, { locked: true });
    } catch (err) {
      await undo();
      throw err;
    }
  }

  /** What the policies allow of `names` for the user (acting for the organization, if any); everything without a policy. */
  async issuable(
    userId: number,
    names: readonly string[],
    organizationId: number | null = null,
  ): Promise<readonly string[]> {
    let allowed = names;
    for (const policy of this.issuancePolicies) allowed = await policy(userId, allowed, organizationId);
    return allowed;
  }
}
