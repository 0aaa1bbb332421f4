import { Guards } from '../../auth/guards.js';
import { SessionStore } from '../../auth/session-store.js';
import { bindUsers, Users } from '../../auth/users.js';
import type { Application, ServiceProvider } from '../../kernel/application.js';
import { RateLimits } from '../../rate-limits/rate-limits.js';
import { apiKeyEnvironment } from '../api-keys/environment.js';
import { ApiKeyStoreKey } from '../api-keys/records.js';
import { LiveClients } from '../clients/live-clients.js';
import { DpopProofs } from '../dpop/dpop-proofs.js';
import {
  AccessTokenCreated,
  AccessTokenRevoked,
  ApiKeyRevoked,
  ClientRevoked,
  ClientSecretRotated,
  ClientUpdated,
} from '../events.js';
import { OAuthHooks } from '../hooks.js';
import { AccessTokenVerifier } from '../jwt/access-token-verifier.js';
import { ProtectedResources } from '../protected-resources.js';
import { Scopes } from '../scopes.js';
import { OAuthStoreKey } from '../stores/contracts.js';
import { ApiKeyAuthenticator } from './api-key-authenticator.js';
import { AppTokenCookie } from './app-token.js';
import { AppTokenAuthenticator } from './app-token-authenticator.js';
import { createFreshApiToken } from './fresh-api-token.js';
import { runGuardSteps } from './guard-steps.js';
import { LastUsed } from './last-used.js';
import { resourceChallenge } from './resource-challenge.js';
import { RevocationBroadcast, type RevocationMessage } from './revocation-broadcast.js';
import { checkClientCredentials, checkForAnyScope, checkScopes } from './scope-middleware.js';
import { TokenGuard, type TokenGuardOptions } from './token-guard.js';
import { DEFAULT_RECHECK_MS } from './token-states.js';

export interface ApiGuardOptions extends TokenGuardOptions {
  /** Redis for cross-instance revocation; default `config.redis.url` (REDIS_URL). Empty: in process only. */
  redisUrl?: string;
  /** The pub/sub channel; instances that share tokens must share it. */
  redisChannel?: string;
}

/** Marks an application whose guard is registered, so registering twice is harmless. */
class ApiGuardRegistration {
  broadcast: RevocationBroadcast | undefined;
  booted = false;
  constructor(readonly options: ApiGuardOptions) {}
}

/**
 * The `api` guard and its middleware: `auth:api`, `scopes:a,b`, `scope:a,b`, `client[:a,b]`
 * and `fresh-api-token` (add it to the `web` group to hand the frontend its app_token cookie).
 * Called by `oauthProvider()`; idempotent. Needs the OAuth services and `authProvider()`.
 */
export function registerApiGuard(app: Application, options: ApiGuardOptions = {}): void {
  const { container, router, events, config } = app;
  if (container.has(ApiGuardRegistration)) return;
  const registration = new ApiGuardRegistration(options);
  container.instance(ApiGuardRegistration, registration);
  container.singleton(AppTokenCookie).singleton(TokenGuard, (c) => {
    const users = c.make(Users);
    const resources = c.make(ProtectedResources);
    const cookie = new AppTokenAuthenticator({
      cookie: c.make(AppTokenCookie),
      users,
      sessions: () => (c.has(SessionStore) ? c.make(SessionStore) : undefined),
      sessionCookie: config.session.cookie,
    });
    const deps = {
      verifier: c.make(AccessTokenVerifier),
      store: c.make(OAuthStoreKey),
      users,
      clock: app.clock,
      cookie,
      resourceAt: (path: string) => resources.forPath(path)?.metadata.resource,
      dpop: c.make(DpopProofs),
      apiKeys: new ApiKeyAuthenticator({
        keys: c.make(ApiKeyStoreKey),
        clock: app.clock,
        environment: apiKeyEnvironment(config),
        header: config.oauth.apiKeys.header.toLowerCase(),
        lastUsed: c.make(LastUsed),
        limits: c.make(RateLimits),
        recheckAfterMs: options.recheckAfterMs ?? DEFAULT_RECHECK_MS,
      }),
      lastUsed: c.make(LastUsed),
    };
    return new TokenGuard(deps, options);
  });
  bindUsers(container);

  let guard: TokenGuard | undefined;
  const tokenGuard = () => (guard ??= container.make(TokenGuard));
  const steps = OAuthHooks.of(app).guardSteps;
  Guards.of(app).define('api', (c) => {
    const user = tokenGuard().user(c);
    if (steps.length === 0) return user;
    return user instanceof Promise
      ? user.then((u) => runGuardSteps(c, u, steps))
      : runGuardSteps(c, user, steps);
  });
  router.errorHooks.push(resourceChallenge(() => container.make(ProtectedResources)));

  const known = () => container.make(Scopes);
  router.middleware
    .alias('scopes', (...scopes) => checkScopes(scopes, known()))
    .alias('scope', (...scopes) => checkForAnyScope(scopes, known()))
    .alias('client', (...scopes) => checkClientCredentials(tokenGuard, scopes, known()))
    .alias('fresh-api-token', () => createFreshApiToken(container.make(AppTokenCookie)));

  const publish = (message: RevocationMessage) => registration.broadcast?.publish(message);
  const revocations = () => tokenGuard().revocations;
  events.listen(AccessTokenCreated, (e) =>
    revocations().created(e.tokenId, e.clientId, e.userId, performance.now()),
  );
  events.listen(AccessTokenRevoked, (e) => {
    revocations().revoke(e.tokenId, performance.now());
    publish({ type: 'token', id: e.tokenId });
  });
  events.listen(ApiKeyRevoked, (e) => {
    tokenGuard().deps.apiKeys?.revoke(e.keyId);
    publish({ type: 'key', id: e.keyId });
  });
  app.onClose(() => (container.has(LastUsed) ? container.make(LastUsed).flush() : undefined));
  events.listen(ClientRevoked, (e) => {
    revocations().revokeClient(e.clientId, performance.now());
    publish({ type: 'client', id: e.clientId });
  });
  // Other instances forget the client they keep (`LiveClients`): an old secret or a removed
  // redirect URI is refused there too, not for the rest of the cache's few seconds. Not awaited:
  // `dispatch` waits for what a listener returns, and a change must not wait on Redis.
  for (const event of [ClientSecretRotated, ClientUpdated]) {
    events.listen(event, (e) => {
      publish({ type: 'client-changed', id: e.clientId });
    });
  }
}

/**
 * Connects the revocation broadcast when Redis is configured. A Redis that does not answer is
 * logged, not fatal: the instance still refuses what it revoked itself.
 */
export async function bootApiGuard(app: Application): Promise<void> {
  const registration = app.container.has(ApiGuardRegistration)
    ? app.container.make(ApiGuardRegistration)
    : undefined;
  if (!registration || registration.booted) return;
  registration.booted = true;
  const url = registration.options.redisUrl ?? app.config.redis.url;
  if (!url) return;
  const guard = app.container.make(TokenGuard);
  const clients = app.container.make(LiveClients);
  const broadcast = new RevocationBroadcast(
    url,
    registration.options.redisChannel ?? 'tollgate:oauth:revocations',
    {
      revoked: (m) => {
        if (m.type === 'token') guard.revocations.revoke(m.id, performance.now());
        else if (m.type === 'key') guard.deps.apiKeys?.revoke(m.id);
        else {
          if (m.type === 'client') guard.revocations.revokeClient(m.id, performance.now());
          clients.forget(m.id);
        }
      },
      flush: () => {
        guard.flush();
        clients.clear();
      },
    },
    app.logger,
  );
  registration.broadcast = broadcast;
  app.onClose(() => broadcast.close());
  try {
    await broadcast.start();
  } catch (err) {
    app.logger.error(
      { err: (err as Error).message },
      'Redis is not reachable: token revocations stay in this instance',
    );
  }
}

/**
 * Waits for the broadcasts under way, each at most `PUBLISH_TIMEOUT_MS`: a short-lived process (a
 * CLI command) calls it before it closes, since closing a connection not yet ready drops them.
 */
export async function broadcastsSent(app: Application): Promise<void> {
  if (app.container.has(ApiGuardRegistration))
    await app.container.make(ApiGuardRegistration).broadcast?.settled();
}

/** `registerApiGuard` + `bootApiGuard` as a provider, for applications that wire `oauthProvider()` themselves. */
export function apiGuardProvider(options: ApiGuardOptions = {}): ServiceProvider {
  return {
    name: 'oauth.guard',
    register: (app) => registerApiGuard(app, options),
    boot: (app) => bootApiGuard(app),
  };
}
