import { ConfigurationError } from '../../core/errors.js';
import type { UpstreamProviderSettings } from './upstream-config.js';

/** A provider's settings with its preset applied: what the client needs to talk to it. */
export interface UpstreamProvider {
  id: string;
  label: string;
  clientId: string;
  clientSecret: string;
  scope: string;
  /** OpenID Connect (an ID token, a nonce), or plain OAuth 2.0 (a user endpoint). */
  openid: boolean;
  /** OpenID Connect: where discovery starts. */
  issuer: string;
  /** Plain OAuth 2.0: the endpoints, given instead of discovered. */
  endpoints?: { authorization: string; token: string; user: string };
  /** How the user endpoint answers: the OpenID Connect claims, or GitHub's `/user` and `/user/emails`. */
  profile: 'claims' | 'github';
}

/** A provider id names routes and stored links: a short lowercase word. */
const ID_SHAPE = /^[a-z0-9][a-z0-9-]{0,31}$/;

const LABELS: Record<UpstreamProviderSettings['type'], string | undefined> = {
  github: 'GitHub',
  google: 'Google',
  oidc: undefined,
  oauth2: undefined,
};

/** Applies the presets and checks what each type needs; a mistake fails at boot. */
export function resolveUpstreamProvider(id: string, settings: UpstreamProviderSettings): UpstreamProvider {
  const fail = (why: string) => new ConfigurationError(`signin.upstream.providers.${id}: ${why}`);
  if (!ID_SHAPE.test(id)) throw fail('the id must be lowercase letters, digits and dashes (up to 32).');
  if (!settings.clientId) throw fail('clientId is required.');
  const base = {
    id,
    label: settings.label ?? LABELS[settings.type] ?? id,
    clientId: settings.clientId,
    clientSecret: settings.clientSecret ?? '',
  };
  switch (settings.type) {
    case 'google':
      return {
        ...base,
        openid: true,
        issuer: settings.issuer ?? 'https://accounts.google.com',
        scope: settings.scope ?? 'openid email profile',
        profile: 'claims',
      };
    case 'oidc':
      if (!settings.issuer) throw fail('issuer is required for an OpenID Connect provider.');
      return {
        ...base,
        openid: true,
        issuer: settings.issuer,
        scope: settings.scope ?? 'openid email profile',
        profile: 'claims',
      };
    case 'github':
      return {
        ...base,
        openid: false,
        issuer: 'https://github.com',
        scope: settings.scope ?? 'read:user user:email',
        endpoints: {
          authorization: settings.authorizationEndpoint ?? 'https://github.com/login/oauth/authorize',
          token: settings.tokenEndpoint ?? 'https://github.com/login/oauth/access_token',
          user: settings.userinfoEndpoint ?? 'https://api.github.com/user',
        },
        profile: 'github',
      };
    case 'oauth2': {
      const { authorizationEndpoint, tokenEndpoint, userinfoEndpoint } = settings;
      if (!authorizationEndpoint || !tokenEndpoint || !userinfoEndpoint)
        throw fail('authorizationEndpoint, tokenEndpoint and userinfoEndpoint are required for OAuth 2.0.');
      return {
        ...base,
        openid: false,
        issuer: settings.issuer ?? new URL(authorizationEndpoint).origin,
        scope: settings.scope ?? '',
        endpoints: { authorization: authorizationEndpoint, token: tokenEndpoint, user: userinfoEndpoint },
        profile: 'claims',
      };
    }
    default:
      throw fail(`unknown type "${String((settings as { type: unknown }).type)}".`);
  }
}
