import * as client from 'openid-client';
import { UpstreamError } from './upstream-error.js';
import type { UpstreamProvider } from './upstream-presets.js';

/** Who the provider says the user is. Its tokens are used once, here, and never stored. */
export interface UpstreamIdentity {
  /** The provider's stable id of the user (`sub`; GitHub's numeric `id`). */
  subject: string;
  email: string | null;
  /** Whether the provider vouches that the user controls `email`. */
  emailVerified: boolean;
  name: string | null;
}

/** What the browser's session keeps between the redirect and the callback. */
export interface UpstreamRequest {
  state: string;
  nonce: string | null;
  /** PKCE (RFC 7636) code verifier. */
  verifier: string;
}

const LOOPBACK = new Set(['127.0.0.1', 'localhost', '[::1]']);

/**
 * An OpenID Connect relying party (or OAuth 2.0 client) for one upstream provider, on openid-client:
 * authorization code flow with PKCE, `state` and (OpenID Connect) `nonce`. Discovery runs on first
 * use and is kept; a failed one is tried again next time.
 */
export class UpstreamClient {
  #configuration: Promise<client.Configuration> | undefined;

  constructor(readonly provider: UpstreamProvider) {}

  /** The provider's authorization URL, and what to remember until the callback. */
  async begin(redirectUri: string): Promise<{ url: URL; request: UpstreamRequest }> {
    const configuration = await this.configuration();
    const verifier = client.randomPKCECodeVerifier();
    const request: UpstreamRequest = {
      state: client.randomState(),
      nonce: this.provider.openid ? client.randomNonce() : null,
      verifier,
    };
    const parameters: Record<string, string> = {
      redirect_uri: redirectUri,
      state: request.state,
      code_challenge: await client.calculatePKCECodeChallenge(verifier),
      code_challenge_method: 'S256',
    };
    if (this.provider.scope) parameters.scope = this.provider.scope;
    if (request.nonce) parameters.nonce = request.nonce;
    return { url: client.buildAuthorizationUrl(configuration, parameters), request };
  }

  /** Redeems the callback (`callbackUrl`: the redirect URI with the provider's query) for the identity. */
  async finish(callbackUrl: URL, request: UpstreamRequest): Promise<UpstreamIdentity> {
    // Checked here first so that a stranger's callback never reaches the provider's token endpoint.
    if (callbackUrl.searchParams.get('state') !== request.state)
      throw new UpstreamError('state', 'This sign-in did not start in this browser, or it expired.');
    const configuration = await this.configuration();
    try {
      const tokens = await client.authorizationCodeGrant(configuration, callbackUrl, {
        pkceCodeVerifier: request.verifier,
        expectedState: request.state,
        ...(request.nonce ? { expectedNonce: request.nonce } : {}),
        idTokenExpected: this.provider.openid,
      });
      if (this.provider.profile === 'github') return await this.github(configuration, tokens.access_token);
      const claims = tokens.claims();
      const info = claims?.email
        ? claims
        : await this.userinfo(configuration, tokens.access_token, claims?.sub ?? client.skipSubjectCheck);
      return identityOf(info);
    } catch (error) {
      throw asUpstreamError(error, this.provider.label);
    }
  }

  private configuration(): Promise<client.Configuration> {
    this.#configuration ??= this.discover().catch((error: unknown) => {
      this.#configuration = undefined;
      throw asUpstreamError(error, this.provider.label);
    });
    return this.#configuration;
  }

  private async discover(): Promise<client.Configuration> {
    const { provider } = this;
    const auth = client.ClientSecretPost(provider.clientSecret);
    // Plain http is refused, except for a provider on this machine (development, tests).
    const insecure = LOOPBACK.has(new URL(provider.endpoints?.token ?? provider.issuer).hostname);
    if (!provider.endpoints) {
      return client.discovery(new URL(provider.issuer), provider.clientId, undefined, auth, {
        ...(insecure ? { execute: [client.allowInsecureRequests] } : {}),
      });
    }
    const configuration = new client.Configuration(
      {
        issuer: provider.issuer,
        authorization_endpoint: provider.endpoints.authorization,
        token_endpoint: provider.endpoints.token,
        userinfo_endpoint: provider.endpoints.user,
      },
      provider.clientId,
      undefined,
      auth,
    );
    if (insecure) client.allowInsecureRequests(configuration);
    return configuration;
  }

  private async userinfo(
    configuration: client.Configuration,
    accessToken: string,
    subject: string | typeof client.skipSubjectCheck,
  ): Promise<Record<string, unknown>> {
    if (this.provider.openid) return client.fetchUserInfo(configuration, accessToken, subject);
    return this.getJson(configuration, accessToken, this.provider.endpoints!.user);
  }

  /** GitHub: `/user` for the id and name, `/user/emails` for a primary, verified address. */
  private async github(configuration: client.Configuration, accessToken: string): Promise<UpstreamIdentity> {
    const userUrl = this.provider.endpoints!.user;
    const user = await this.getJson(configuration, accessToken, userUrl);
    const emails = (await this.getJson(configuration, accessToken, `${userUrl}/emails`)) as unknown;
    const primary = Array.isArray(emails)
      ? (emails as Array<{ email?: string; primary?: boolean; verified?: boolean }>).find((e) => e.primary)
      : undefined;
    return identityOf({
      sub: user.id,
      name: user.name ?? user.login,
      email: primary?.email ?? null,
      email_verified: primary?.verified === true,
    });
  }

  private async getJson(
    configuration: client.Configuration,
    accessToken: string,
    url: string,
  ): Promise<Record<string, unknown>> {
    const headers = new Headers({ accept: 'application/json' });
    const response = await client.fetchProtectedResource(
      configuration,
      accessToken,
      new URL(url),
      'GET',
      undefined,
      headers,
    );
    if (!response.ok)
      throw new UpstreamError(
        'unavailable',
        `${this.provider.label} did not answer.`,
        `${url}: ${response.status}`,
      );
    return (await response.json()) as Record<string, unknown>;
  }
}

function identityOf(info: Record<string, unknown>): UpstreamIdentity {
  const subject = info.sub ?? info.id;
  if ((typeof subject !== 'string' && typeof subject !== 'number') || String(subject) === '')
    throw new UpstreamError('unavailable', 'The provider did not say who you are.', 'no subject');
  const email =
    typeof info.email === 'string' && info.email.includes('@') ? info.email.trim().toLowerCase() : null;
  return {
    subject: String(subject).slice(0, 255),
    email,
    emailVerified: email !== null && (info.email_verified === true || info.email_verified === 'true'),
    name: typeof info.name === 'string' && info.name.trim() ? info.name.trim().slice(0, 255) : null,
  };
}

/** openid-client's errors, sorted into what the user is told; the detail is for the log. */
function asUpstreamError(error: unknown, label: string): UpstreamError {
  if (error instanceof UpstreamError) return error;
  if (error instanceof client.AuthorizationResponseError) {
    const said = error.error_description ? `: ${error.error_description}` : '.';
    const message =
      error.error === 'access_denied'
        ? `Sign-in with ${label} was cancelled${said}`
        : `${label} refused the sign-in (${error.error})${said}`;
    return new UpstreamError('refused', message, error.error);
  }
  if (comparedClaim(error) === 'nonce')
    return new UpstreamError(
      'nonce',
      `The answer from ${label} was not meant for this sign-in.`,
      'nonce mismatch',
    );
  const detail = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
  return new UpstreamError(
    'unavailable',
    `${label} could not complete the sign-in. Please try again.`,
    detail,
  );
}

/** The claim a failed comparison was about (openid-client wraps oauth4webapi's error, which says). */
function comparedClaim(error: unknown): unknown {
  for (let e = error as { code?: unknown; cause?: unknown } | undefined; e; e = e.cause as typeof e) {
    if (
      e.code === 'OAUTH_JWT_CLAIM_COMPARISON_FAILED' &&
      typeof e.cause === 'object' &&
      e.cause &&
      'claim' in e.cause
    )
      return (e.cause as { claim: unknown }).claim;
  }
  return undefined;
}
