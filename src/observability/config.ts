import { type ConfigSlice, envInt } from '../core/config.js';

export interface ObservabilityConfig {
  metrics: {
    /** `GET /metrics` answers only with `Authorization: Bearer <token>`; empty (the default): off. */
    token: string;
    /** A port on 127.0.0.1 serving `/metrics` without a token (for a scraper on the same host); 0: none. */
    port: number;
  };
  audit: {
    /** `GET /audit/events` answers only with `Authorization: Bearer <token>`; empty (the default): off. */
    token: string;
    /** Audit rows older than this many days are purged (`tollgate audit:purge`, the scheduler); 0: kept. */
    retentionDays: number;
  };
}

declare module '../core/config.js' {
  interface TollgateConfig {
    observability: ObservabilityConfig;
  }
}

export const observabilityConfig: ConfigSlice<'observability'> = {
  defaults: { observability: { metrics: { token: '', port: 0 }, audit: { token: '', retentionDays: 365 } } },
  fromEnv: (env) => ({
    observability: {
      metrics: { token: env.METRICS_TOKEN || undefined, port: envInt(env.METRICS_PORT, 'METRICS_PORT') },
      audit: {
        token: env.AUDIT_TOKEN || undefined,
        retentionDays: envInt(env.AUDIT_RETENTION_DAYS, 'AUDIT_RETENTION_DAYS'),
      },
    },
  }),
};
