import type { Clock } from '../../core/clock.js';
import type { TollgateConfig } from '../../core/config.js';
import { ClockKey, ConfigKey } from '../../core/keys.js';
import { registeredItself } from '../clients/client-provenance.js';
import { LiveClients } from '../clients/live-clients.js';
import { OAuthError } from '../errors.js';
import { issuerOf } from '../jwt/access-token-signer.js';
import { ClientLogout } from '../logout/client-logout.js';
import { OPENID } from '../oidc/scopes.js';
import { ProtectedResources } from '../protected-resources.js';
import { type ClientRecord, clientHandlesGrant } from '../records.js';
import { Scopes } from '../scopes.js';
import { hashSecret, randomSecret } from '../secrets.js';
import { type OAuthStore, OAuthStoreKey } from '../stores/contracts.js';
import { TokenIssuer } from '../tokens/token-issuer.js';
import {
  type AuthorizationRequest,
  approvalScopes,
  type RedirectTarget,
  type ResponseType,
  validateAuthorizationRequest,
} from './authorization-request.js';
import { approvalAlreadyGiven } from './consent.js';

/**
 * The authorization endpoint's decisions (RFC 6749 §4.1.2, §4.2.2): validate a request, then
 * turn the user's approval into a code or (implicit grant) a token, or the denial into an error,
 * always as a URL to redirect to.
 */
export class AuthorizationService {
  static inject = [
    OAuthStoreKey,
    Scopes,
    TokenIssuer,
    ClockKey,
    ConfigKey,
    ProtectedResources,
    LiveClients,
    ClientLogout,
  ] as const;
  readonly #issuer: string;

  constructor(
    private readonly store: OAuthStore,
    private readonly scopes: Scopes,
    private readonly issuer: TokenIssuer,
    private readonly clock: Clock,
    private readonly config: TollgateConfig,
    private readonly resources: ProtectedResources,
    private readonly clients: LiveClients,
    private readonly logout: ClientLogout,
  ) {
    this.#issuer = issuerOf(config);
  }

  /** The client is read through the few seconds' cache of live clients the token endpoint uses. */
  validate(query: Readonly<Record<string, string | undefined>>) {
    return validateAuthorizationRequest(query, {
      clients: this.clients,
      scopes: this.scopes,
      config: this.config.oauth,
      resources: this.resources,
    });
  }

  /** Whether this request needs no approval page (see `approvalAlreadyGiven`). */
  skipsApproval(client: ClientRecord, userId: number, request: AuthorizationRequest, prompt?: string) {
    return approvalAlreadyGiven(
      this.store.accessTokens,
      { client, userId, scopes: approvalScopes(request), prompt },
      this.clock.now().toISOString(),
    );
  }

  /**
   * OpenID Connect Core §3.1.2.1: whether the user must log in (again) first — `prompt=login`, or
   * `max_age` with a login older than it or of unknown age. `authTime` is in seconds.
   */
  needsNewLogin(request: AuthorizationRequest, authTime: number | null): boolean {
    if (request.prompt.includes('login')) return true;
    if (request.maxAge === null) return false;
    const now = Math.floor(this.clock.now().getTime() / 1000);
    return authTime === null || now - authTime > request.maxAge;
  }

  /**
   * The user approved: a redirect carrying `code` (or, implicit, the token in the fragment).
   * `authTime` (seconds) is when the user logged in, for an ID token's `auth_time`. `validated`
   * is the client `validate` read in this same request (maybe from the cache: a code is inserted
   * only while its client is live, and a token answer reads it again); an approval posted from the
   * page later reads it again too, as it may have gone away meanwhile. `sid` is the login session's (OpenID
   * requests): the ID token carries it, and the session's logout reaches the client. `amr` is how
   * the user signed in, for the ID token's `amr` and `acr`.
   */
  async approve(
    request: AuthorizationRequest,
    userId: number,
    authTime: number | null = null,
    validated?: ClientRecord,
    sid: string | null = null,
    amr: readonly string[] | null = null,
  ): Promise<string> {
    const code = request.responseType === 'code';
    const client = (code && validated) || (await this.store.clients.find(request.clientId));
    if (!client || client.revoked || !clientHandlesGrant(client, code ? 'authorization_code' : 'implicit')) {
      throw this.#wentAway(request);
    }
    if (request.responseType === 'token') {
      if (!this.config.oauth.implicitGrant)
        throw new OAuthError('unsupported_response_type', 'The implicit grant is disabled.');
      const issued = await this.issuer.issue({
        client,
        userId,
        scopes: request.scopes,
        ttlSeconds: this.config.oauth.accessTokenTtlSeconds,
        audience: request.resource ?? null,
      });
      return this.redirect(request.redirectUri, 'token', {
        access_token: issued.accessToken,
        token_type: 'Bearer',
        expires_in: String(issued.expiresIn),
        scope: request.scopes.join(' '),
        state: request.state,
      });
    }
    const secret = randomSecret();
    const now = this.clock.now();
    const openIdSid = request.scopes.includes(OPENID) ? sid : null;
    const inserted = await this.store.authCodes.insert({
      id: hashSecret(secret),
      userId,
      clientId: client.id,
      scopes: request.scopes,
      redirectUri: request.redirectUri,
      codeChallenge: request.codeChallenge,
      codeChallengeMethod: request.codeChallengeMethod,
      revoked: false,
      accessTokenId: null,
      createdAt: now.toISOString(),
      expiresAt: new Date(now.getTime() + this.config.oauth.authCodeTtlSeconds * 1000).toISOString(),
      nonce: request.nonce,
      authTime: authTime === null ? null : new Date(authTime * 1000).toISOString(),
      amr: request.scopes.includes(OPENID) ? amr : null,
      resource: request.resource ?? null,
      dpopJkt: request.dpopJkt ?? null,
      sid: openIdSid,
      claims: request.claims ?? null,
    });
    if (!inserted) throw this.#wentAway(request);
    if (openIdSid !== null) await this.logout.recordSession(openIdSid, client.id, userId, now.toISOString());
    return this.redirect(request.redirectUri, 'code', { code: secret, state: request.state });
  }

  #wentAway(request: AuthorizationRequest): OAuthError {
    return OAuthError.invalidClient(`client ${request.clientId} went away during approval`);
  }

  /** The user denied: `error=access_denied` back to the client. */
  deny(request: AuthorizationRequest): string {
    return this.errorRedirect(OAuthError.accessDenied(), {
      uri: request.redirectUri,
      responseType: request.responseType,
      state: request.state,
    });
  }

  /**
   * RFC 9700 §4.11.2: an error is redirected without the user's say only to a client someone this
   * server knows registered; a client that registered itself could use this endpoint as an open
   * redirector (a request bound to fail, sent to anyone's browser, lands on its site).
   */
  async redirectsErrorsTo(clientId: string): Promise<boolean> {
    return !(await registeredItself(this.store, clientId));
  }

  errorRedirect(error: OAuthError, target: RedirectTarget): string {
    return this.redirect(target.uri, target.responseType, {
      error: error.code,
      error_description: error.description,
      state: target.state,
    });
  }

  /**
   * Code responses go in the query, implicit ones in the fragment (RFC 6749 §4.2.2); both carry
   * `iss` (RFC 9207) so a client can tell which server answered. A `form_post` response is this
   * URL too: the HTTP layer posts its parameters instead (`formPostResponse`).
   */
  redirect(uri: string, responseType: ResponseType, params: Record<string, string | null>): string {
    const url = new URL(uri);
    const values = new URLSearchParams();
    for (const [key, value] of Object.entries(params)) if (value !== null) values.set(key, value);
    values.set('iss', this.#issuer);
    if (responseType === 'token') {
      url.hash = values.toString();
    } else {
      for (const [key, value] of values) url.searchParams.set(key, value);
    }
    return url.toString();
  }
}
