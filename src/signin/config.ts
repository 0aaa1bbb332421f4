import { type ConfigSlice, envBool } from '../core/config.js';
import { type UpstreamConfig, upstreamDefaults, upstreamFromEnv } from './upstream/upstream-config.js';

export interface SigninConfig {
  passkeys: {
    /** Passkeys on the login and account pages (`PASSKEYS=off` hides them). */
    enabled: boolean;
    /**
     * The WebAuthn relying party id: a registrable domain the pages are served under. Empty: the
     * host name of `app.url`.
     */
    rpId: string;
    /** The name authenticators show beside the passkey. Empty: `app.name`. */
    rpName: string;
    /**
     * The origins an assertion may come from (`https://app.example.com`). Empty: the origin of
     * `app.url` alone.
     */
    origins: string[];
  };
  /** "Sign in with …": upstream identity providers by id (docs/sign-in.md). */
  upstream: UpstreamConfig;
  /** "Remember this device" on the second step (`REMEMBER_DEVICE=off` hides it). */
  rememberDevice: {
    enabled: boolean;
    /** How long a remembered browser skips the second factor. */
    days: number;
    /** The cookie's name (path `/login`). */
    cookie: string;
  };
}

declare module '../core/config.js' {
  interface TollgateConfig {
    signin: SigninConfig;
  }
}

export const signinConfig: ConfigSlice<'signin'> = {
  defaults: {
    signin: {
      passkeys: { enabled: true, rpId: '', rpName: '', origins: [] },
      upstream: upstreamDefaults,
      rememberDevice: { enabled: true, days: 30, cookie: 'tollgate_device' },
    },
  },
  fromEnv: (env) => ({
    signin: {
      passkeys: {
        enabled: envBool(env.PASSKEYS),
        rpId: env.PASSKEYS_RP_ID || undefined,
        origins: env.PASSKEYS_ORIGINS
          ? env.PASSKEYS_ORIGINS.split(',')
              .map((origin) => origin.trim())
              .filter(Boolean)
          : undefined,
      },
      upstream: upstreamFromEnv(env),
      rememberDevice: { enabled: envBool(env.REMEMBER_DEVICE) },
    },
  }),
};
