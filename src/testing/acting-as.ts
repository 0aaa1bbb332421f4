import type { User } from '../auth/user.js';
import type { Container } from '../core/container.js';
import { TokenGuard } from '../oauth/guard/token-guard.js';
import { transientToken } from '../oauth/guard/verified-token.js';

type HasContainer = { container: Container };

/**
 * Passport's `actingAs` for tests: every later request authenticates through `auth:api` as `user`,
 * with a token holding `scopes`, without issuing a token. Undo with `stopActing(app)`.
 *
 * @example
 * actingAs(app, ada, ['check-status']);
 * expect((await app.fetch(new Request('http://localhost/api/orders'))).status).toBe(200);
 */
export function actingAs<T extends User>(app: HasContainer, user: T, scopes: readonly string[] = []): T {
  app.container.make(TokenGuard).actingAs = { user, token: transientToken(user.id, scopes) };
  return user;
}

/** Passport's `actingAsClient`: requests pass the `client` middleware as `clientId` with `scopes` (no user). */
export function actingAsClient(app: HasContainer, clientId: string, scopes: readonly string[] = []): void {
  app.container.make(TokenGuard).actingAs = {
    user: undefined,
    token: transientToken(null, scopes, clientId),
  };
}

/** Requests need real tokens again. */
export function stopActing(app: HasContainer): void {
  app.container.make(TokenGuard).actingAs = undefined;
}
