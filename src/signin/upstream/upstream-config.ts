import type { Env } from '../../core/config.js';

/**
 * One upstream identity provider, as the application configures it. `github` and `google` are
 * presets (their endpoints are known: give the client id and secret); `oidc` is any OpenID Connect
 * provider, found by discovery from `issuer`; `oauth2` is a plain OAuth 2.0 provider whose
 * endpoints are given, its user endpoint answering `sub` (or `id`), `email`, `email_verified`, `name`.
 */
export interface UpstreamProviderSettings {
  type: 'github' | 'google' | 'oidc' | 'oauth2';
  clientId: string;
  clientSecret: string;
  /** The button's text: "Sign in with {label}". Default: the preset's name, or the provider's id. */
  label?: string;
  /** `oidc`: the issuer (discovery at `{issuer}/.well-known/openid-configuration`). */
  issuer?: string;
  /** Default: `openid email profile` (OpenID Connect), `read:user user:email` (GitHub). */
  scope?: string;
  /** `oauth2`: the endpoints. */
  authorizationEndpoint?: string;
  tokenEndpoint?: string;
  userinfoEndpoint?: string;
}

export interface UpstreamConfig {
  /** By id: the id names the routes (`/login/{id}`, callback `/login/{id}/callback`) and the stored links. */
  providers: Record<string, UpstreamProviderSettings>;
}

export const upstreamDefaults: UpstreamConfig = { providers: {} };

/**
 * `SIGNIN_GITHUB_CLIENT_ID`/`_SECRET`, `SIGNIN_GOOGLE_CLIENT_ID`/`_SECRET`, and one generic OpenID
 * Connect provider: `SIGNIN_OIDC_ISSUER`, `SIGNIN_OIDC_CLIENT_ID`/`_SECRET`, `SIGNIN_OIDC_LABEL`.
 */
export function upstreamFromEnv(env: Env): Partial<UpstreamConfig> {
  const providers: Record<string, UpstreamProviderSettings> = {};
  const secretOf = (name: string) => env[`SIGNIN_${name}_CLIENT_SECRET`] ?? '';
  if (env.SIGNIN_GITHUB_CLIENT_ID)
    providers.github = {
      type: 'github',
      clientId: env.SIGNIN_GITHUB_CLIENT_ID,
      clientSecret: secretOf('GITHUB'),
    };
  if (env.SIGNIN_GOOGLE_CLIENT_ID)
    providers.google = {
      type: 'google',
      clientId: env.SIGNIN_GOOGLE_CLIENT_ID,
      clientSecret: secretOf('GOOGLE'),
    };
  if (env.SIGNIN_OIDC_ISSUER && env.SIGNIN_OIDC_CLIENT_ID) {
    providers.oidc = {
      type: 'oidc',
      issuer: env.SIGNIN_OIDC_ISSUER,
      clientId: env.SIGNIN_OIDC_CLIENT_ID,
      clientSecret: secretOf('OIDC'),
      ...(env.SIGNIN_OIDC_LABEL ? { label: env.SIGNIN_OIDC_LABEL } : {}),
    };
  }
  return Object.keys(providers).length > 0 ? { providers } : {};
}
