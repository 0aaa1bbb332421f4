import { type ConfigSlice, envInt } from '../core/config.js';
import { parsePolicy, type RateLimitPolicy } from '../rate-limits/policy.js';

declare module '../core/config.js' {
  interface TollgateConfig {
    session: { cookie: string; lifetimeMinutes: number };
    csrf: { except: string[] };
    /** Password guessing and sign-up limits (docs/security.md, "Rate limits"). */
    throttle: {
      login: {
        /** Password attempts per account: the login form and the password grant together. */
        account: RateLimitPolicy;
        /** Password attempts per client address that did not succeed. */
        address: RateLimitPolicy;
      };
      /** Registration attempts per client address. */
      registration: { address: RateLimitPolicy };
    };
  }
}

export const authConfig: ConfigSlice<'session' | 'csrf' | 'throttle'> = {
  defaults: {
    session: { cookie: 'tollgate_session', lifetimeMinutes: 120 },
    csrf: { except: [] },
    throttle: {
      login: {
        account: { points: 5, durationSeconds: 60, maxBlockSeconds: 900 },
        address: { points: 30, durationSeconds: 60, maxBlockSeconds: 900 },
      },
      registration: { address: { points: 10, durationSeconds: 3600 } },
    },
  },
  fromEnv: (env) => ({
    session: {
      cookie: env.SESSION_COOKIE || undefined,
      lifetimeMinutes: envInt(env.SESSION_LIFETIME, 'SESSION_LIFETIME'),
    },
    throttle: {
      login: {
        account: parsePolicy(env.THROTTLE_LOGIN_ACCOUNT, 'THROTTLE_LOGIN_ACCOUNT'),
        address: parsePolicy(env.THROTTLE_LOGIN_ADDRESS, 'THROTTLE_LOGIN_ADDRESS'),
      },
      registration: {
        address: parsePolicy(env.THROTTLE_REGISTRATION_ADDRESS, 'THROTTLE_REGISTRATION_ADDRESS'),
      },
    },
  }),
};
