import type { Context } from 'hono';
import type { VerifiedToken } from './verified-token.js';

declare module 'hono' {
  interface ContextVariableMap {
    /**
     * The access token the request authenticated with, set by the `api` guard and the `client`
     * middleware; read by `scopes`/`scope`. A transient token (all scopes) for the app_token cookie.
     */
    accessToken: VerifiedToken | undefined;
  }
}

/** The access token of the request, if an `auth:api` or `client` middleware accepted one. */
export function currentAccessToken(c: Context): VerifiedToken | undefined {
  return c.get('accessToken');
}
