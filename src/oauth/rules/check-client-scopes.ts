import { OAuthError } from '../errors.js';
import type { ClientRecord } from '../records.js';

/**
 * A client's own scope limit (Passport's `Client::hasScope`): asking for a scope outside it is
 * `invalid_scope` (RFC 6749 §4.1.2.1, §5.2). A client without a limit may ask for any scope the
 * application defines.
 */
export function checkClientScopes(
  client: ClientRecord,
  scopes: readonly string[],
  options: { redirectable?: boolean } = {},
): void {
  const allowed = client.allowedScopes;
  if (allowed === null) return;
  const refused = scopes.find((scope) => !allowed.includes(scope));
  if (refused !== undefined) {
    throw OAuthError.invalidScope(`This client may not request the scope "${refused}".`, {
      redirectable: options.redirectable,
    });
  }
}
