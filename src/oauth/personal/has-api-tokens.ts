import type { User } from '../../auth/user.js';
import { ClockKey } from '../../core/keys.js';
import type { ClientRecord } from '../records.js';
import { scopesAllow } from '../scopes.js';
import { OAuthStoreKey } from '../stores/contracts.js';
import { type PersonalAccessTokenResult, PersonalAccessTokens } from './personal-access-tokens.js';

/** The token a request was authenticated with, as the `api` guard hands it to the user. */
export interface CurrentAccessToken {
  id: string;
  clientId: string;
  userId: number | null;
  scopes: readonly string[];
  expiresAt?: string;
  /** `api_key` for an API key (whose `clientId` is empty); absent for an OAuth access token. */
  kind?: 'api_key';
  /** The organization the credential acts for (`org_id`); null or absent: a personal one. */
  organizationId?: number | null;
}

type UserClass = new (...args: any[]) => User;

/**
 * Passport's `HasApiTokens` for the user model.
 *
 * @example
 * class AppUser extends HasApiTokens(User) {}
 * const { accessToken } = await user.createToken('CLI', ['check-status']);
 */
export function HasApiTokens<TBase extends UserClass>(Base: TBase) {
  class WithApiTokens extends Base {
    #accessToken: CurrentAccessToken | undefined;

    /** Issues a personal access token for this user (needs a personal access client). */
    createToken(name: string, scopes: readonly string[] = []): Promise<PersonalAccessTokenResult> {
      return this.container.make(PersonalAccessTokens).create(this.id, name, scopes);
    }

    /** The user's live access tokens, of every client. */
    tokens() {
      const now = this.container.make(ClockKey).now().toISOString();
      return this.container.make(OAuthStoreKey).accessTokens.forUser(this.id, { now });
    }

    /** The clients this user registered. */
    clients(): Promise<ClientRecord[]> {
      return this.container.make(OAuthStoreKey).clients.forUser(this.id);
    }

    /** The token of the current request (set by the `api` guard), if any. */
    token(): CurrentAccessToken | undefined {
      return this.#accessToken;
    }

    withAccessToken(token: CurrentAccessToken | undefined): this {
      this.#accessToken = token;
      return this;
    }

    /** Whether the current token has `scope` (`*` has every scope). False without a token. */
    tokenCan(scope: string): boolean {
      return this.#accessToken ? scopesAllow(this.#accessToken.scopes, scope) : false;
    }
  }
  return WithApiTokens;
}

/** The instance side of a user with API tokens, for type annotations. */
export type ApiTokensUser = User & InstanceType<ReturnType<typeof HasApiTokens<UserClass>>>;
