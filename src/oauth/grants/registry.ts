import { authorizationCodeGrant } from './authorization-code.js';
import { clientCredentialsGrant } from './client-credentials.js';
import { deviceCodeGrant } from './device-code.js';
import type { Grant } from './grant.js';
import { passwordGrant } from './password.js';
import { refreshTokenGrant } from './refresh-token.js';

/** The token endpoint's grants by `grant_type`. Applications may register more. */
export class GrantRegistry {
  readonly #grants = new Map<string, Grant>();

  constructor(grants: readonly Grant[] = defaultGrants) {
    for (const grant of grants) this.register(grant);
  }

  register(grant: Grant): this {
    this.#grants.set(grant.grantType, grant);
    return this;
  }

  registerAll(grants: readonly Grant[]): this {
    for (const grant of grants) this.register(grant);
    return this;
  }

  get(grantType: string): Grant | undefined {
    return this.#grants.get(grantType);
  }

  get grantTypes(): string[] {
    return [...this.#grants.keys()];
  }
}

export const defaultGrants: readonly Grant[] = [
  authorizationCodeGrant,
  passwordGrant,
  clientCredentialsGrant,
  refreshTokenGrant,
  deviceCodeGrant,
];
