import type { TollgateConfig } from '../core/config.js';
import { ValidationError } from '../core/errors.js';
import { ConfigKey } from '../core/keys.js';
import { OAuthError } from './errors.js';
import { OAuthHooks } from './hooks.js';
import { OPENID_SCOPES } from './oidc/scopes.js';

/** A scope as the JSON API and the approval page show it (Passport's shape). */
export interface Scope {
  id: string;
  description: string;
}

/** The special scope that passes every check; only the password grant may grant it. */
export const ALL_SCOPES = '*';

/** RFC 6749 §3.3: scope-token = 1*( %x21 / %x23-5B / %x5D-7E ). */
const SCOPE_TOKEN = /^[\x21\x23-\x5b\x5d-\x7e]+$/;

/**
 * The application's scopes (name → description, from `config.oauth.scopes`), then the OpenID
 * Connect scopes (`openid`, `profile`, `email`) it does not describe itself.
 */
export class Scopes {
  static inject = [ConfigKey, OAuthHooks] as const;
  readonly #descriptions: ReadonlyMap<string, string>;

  /** `hooks`: whose issuance policies decide what a user's credentials may carry. */
  constructor(
    config: TollgateConfig,
    private readonly hooks = new OAuthHooks(),
  ) {
    const descriptions = new Map(Object.entries(config.oauth.scopes));
    for (const [id, description] of Object.entries(OPENID_SCOPES)) {
      if (!descriptions.has(id)) descriptions.set(id, description);
    }
    this.#descriptions = descriptions;
  }

  all(): Scope[] {
    return [...this.#descriptions].map(([id, description]) => ({ id, description }));
  }

  has(name: string): boolean {
    return this.#descriptions.has(name);
  }

  /** The scopes as shown to a user; `*` reads as "all". */
  describe(names: readonly string[]): Scope[] {
    return names.map((id) => ({
      id,
      description: id === ALL_SCOPES ? 'Full access to your account' : (this.#descriptions.get(id) ?? id),
    }));
  }

  /** Whether an issuance policy (`OAuthHooks.issuancePolicies`) may narrow what is requested. */
  get restrictsIssuance(): boolean {
    return this.hooks.restrictsIssuance;
  }

  /** The requested scopes the user may be issued (RFC 6749 §3.3: a token may carry fewer). */
  async issuableFor(
    userId: number | null,
    names: readonly string[],
    organizationId: number | null = null,
  ): Promise<readonly string[]> {
    return userId === null || !this.hooks.restrictsIssuance
      ? names
      : this.hooks.issuable(userId, names, organizationId);
  }

  /**
   * Refuses a credential the user creates (a personal token, an API key) with a scope they may
   * not be issued: 422 on `scopes`, naming the first such scope.
   */
  async refuseUnissuable(
    userId: number,
    names: readonly string[],
    organizationId: number | null = null,
  ): Promise<void> {
    if (!this.hooks.restrictsIssuance) return;
    const allowed = new Set(await this.hooks.issuable(userId, names, organizationId));
    const refused = names.find((name) => !allowed.has(name));
    if (refused !== undefined)
      throw new ValidationError({ scopes: [`Your plan does not allow the scope "${refused}".`] });
  }

  /** A space-delimited `scope` parameter as a list without repeats; empty or absent → []. */
  static parse(scope: string | undefined | null): string[] {
    if (!scope) return [];
    return [...new Set(scope.split(' ').filter(Boolean))];
  }

  /**
   * Checks requested scopes: every name must be defined, and `*` only comes with the password
   * grant (spec "Scope"). Throws `invalid_scope`.
   */
  validate(names: readonly string[], options: { allowAll: boolean; redirectable?: boolean }): string[] {
    for (const name of names) {
      if (name === ALL_SCOPES) {
        if (options.allowAll) continue;
        throw OAuthError.invalidScope('The scope "*" may only be requested with the password grant.', {
          redirectable: options.redirectable,
        });
      }
      if (!SCOPE_TOKEN.test(name) || !this.#descriptions.has(name)) {
        // A fixed text: the requested scope is the client's input, never echoed (RFC 6749 §4.1.2.1).
        throw OAuthError.invalidScope('A requested scope is invalid or unknown.', {
          redirectable: options.redirectable,
          detail: `scope ${JSON.stringify(name.slice(0, 100))}`,
        });
      }
    }
    return [...names];
  }
}

/** Whether a token's scopes include `scope` (`*` includes every scope). */
export function scopesAllow(granted: readonly string[], scope: string): boolean {
  return granted.includes(ALL_SCOPES) || granted.includes(scope);
}
