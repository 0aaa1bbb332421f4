import { type ConfigSlice, envInt } from '../core/config.js';

declare module '../core/config.js' {
  interface TollgateConfig {
    session: { cookie: string; lifetimeMinutes: number };
    csrf: { except: string[] };
  }
}

export const authConfig: ConfigSlice<'session' | 'csrf'> = {
  defaults: {
    session: { cookie: 'tollgate_session', lifetimeMinutes: 120 },
    csrf: { except: [] },
  },
  fromEnv: (env) => ({
    session: {
      cookie: env.SESSION_COOKIE || undefined,
      lifetimeMinutes: envInt(env.SESSION_LIFETIME, 'SESSION_LIFETIME'),
    },
  }),
};
