import type { ConfigSlice } from '../core/config.js';

declare module '../core/config.js' {
  interface TollgateConfig {
    /** A `postgres://` URL, or a SQLite file path; empty means `<storagePath>/tollgate.sqlite`. */
    database: { url: string };
  }
}

export const databaseConfig: ConfigSlice<'database'> = {
  defaults: { database: { url: '' } },
  fromEnv: (env) => ({ database: { url: env.DATABASE_URL || undefined } }),
};
