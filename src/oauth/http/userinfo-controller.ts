import type { Context } from 'hono';
import type { Clock } from '../../core/clock.js';
import type { TollgateConfig } from '../../core/config.js';
import { ClockKey, ConfigKey } from '../../core/keys.js';
import { ClientMetadataStore } from '../clients/client-metadata-store.js';
import { OAuthError } from '../errors.js';
import { bearerToken } from '../guard/bearer.js';
import { TokenGuard } from '../guard/token-guard.js';
import { hasAllScopes } from '../guard/verified-token.js';
import { issuerOf } from '../jwt/access-token-signer.js';
import { AccessTokenClaims } from '../oidc/access-token-claims.js';
import { IdTokenSigner } from '../oidc/id-token-signer.js';
import { OPENID } from '../oidc/scopes.js';
import { releasedClaims, type UserClaims, UserClaimsKey } from '../oidc/user-claims.js';
import { formFields } from './form-fields.js';

const REQUIRED = [OPENID] as const;

/**
 * `GET` and `POST /oauth/userinfo` (OpenID Connect Core §5.3): the claims about the token's user
 * for the token's scopes, from the claims mapping hook. The access token comes in the
 * Authorization header (RFC 6750 §2.1) or, by POST, as the form's `access_token` (§2.2) — never
 * from the app_token cookie: this endpoint is for OAuth clients. A token without `openid` is
 * refused with 403 `insufficient_scope` (§5.3.3). A client registered with
 * `userinfo_signed_response_alg` gets the claims as a JWT signed by this server's key, with `iss`
 * and `aud` (its client id), as `application/jwt` (§5.3.2).
 */
export class UserInfoController {
  static inject = [
    TokenGuard,
    UserClaimsKey,
    AccessTokenClaims,
    ClientMetadataStore,
    IdTokenSigner,
    ClockKey,
    ConfigKey,
  ] as const;
  readonly #issuer: string;

  constructor(
    private readonly guard: TokenGuard,
    private readonly claims: UserClaims,
    private readonly requested: AccessTokenClaims,
    private readonly extras: ClientMetadataStore,
    private readonly signer: IdTokenSigner,
    private readonly clock: Clock,
    config: TollgateConfig,
  ) {
    this.#issuer = issuerOf(config);
  }

  async show(c: Context): Promise<Response> {
    const authorization = await presentedToken(c);
    if (bearerToken(authorization) === undefined) throw OAuthError.invalidToken({ reason: 'missing' });
    const user = await this.guard.user(c, authorization);
    const token = c.get('accessToken')!;
    if (!hasAllScopes(token, REQUIRED)) throw OAuthError.insufficientScope(OPENID);
    // Core §5.5: the userinfo claims the authorization request asked for by name.
    const request = await this.requested.find(token.id);
    const released = await releasedClaims(this.claims, user, token.scopes, request);
    const headers = { 'Cache-Control': 'no-store', Pragma: 'no-cache' };
    if ((await this.extras.find(token.clientId)).userinfoSignedResponseAlg === null) {
      return c.json(released, 200, headers);
    }
    const iat = Math.floor(this.clock.now().getTime() / 1000);
    const jwt = await this.signer.signClaims({ ...released, iss: this.#issuer, aud: token.clientId, iat });
    return c.body(jwt, 200, { ...headers, 'Content-Type': 'application/jwt' });
  }
}

/** The Authorization header, or a form's `access_token` as one; both at once is refused (RFC 6750 §2). */
async function presentedToken(c: Context): Promise<string | undefined> {
  const header = c.req.header('authorization');
  const inForm = c.req.method === 'POST' ? (await formFields(c))?.get('access_token') : undefined;
  if (inForm === undefined || inForm === null) return header;
  if (header !== undefined)
    throw OAuthError.invalidRequest('Send the access token in one way only (RFC 6750 §2).');
  return `Bearer ${inForm}`;
}
