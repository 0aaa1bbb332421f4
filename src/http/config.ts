import { type ConfigSlice, envInt } from '../core/config.js';

/**
 * The largest request body each kind of route accepts, in bytes. A route declares its kind with
 * `route.bodyLimit('webhooks')`; any other route gets `forms` for a URL-encoded or multipart body
 * and `default` for everything else (JSON).
 */
export interface BodyLimits {
  /** JSON APIs and any other body: 100 kB, as Express's body parsers. */
  default: number;
  /** The OAuth endpoints (`/oauth/token`, `/oauth/revoke`, `/oauth/introspect`): 56 KiB, as node-oidc-provider. */
  oauth: number;
  /** HTML forms (URL-encoded or multipart) on any path, unknown paths included: 56 KiB. */
  forms: number;
  /** Payment provider webhooks: 1 MB (a Braintree notification carries a whole subscription). */
  webhooks: number;
}

export type BodyLimitKind = keyof BodyLimits;

/** Content-Security-Policy sources added to the strict defaults, by directive (`'img-src': ['https://cdn.example']`). */
export type CspSources = Partial<Record<string, string[]>>;

declare module '../core/config.js' {
  interface TollgateConfig {
    http: { host: string; port: number; bodyLimits: BodyLimits; csp: CspSources };
    /** `controllersPath`: the root that string actions (`'Admin/PhotoController@show'`) are relative to. */
    routes: { cachePath: string; controllersPath: string };
  }
}

export const defaultBodyLimits: BodyLimits = {
  default: 100_000,
  oauth: 56 * 1024,
  forms: 56 * 1024,
  webhooks: 1_000_000,
};

export const httpConfig: ConfigSlice<'http' | 'routes'> = {
  defaults: {
    http: { host: '127.0.0.1', port: 3000, bodyLimits: { ...defaultBodyLimits }, csp: {} },
    routes: { cachePath: 'storage/routes.json', controllersPath: 'app/controllers' },
  },
  fromEnv: (env) => ({
    http: {
      host: env.HOST || undefined,
      port: envInt(env.PORT, 'PORT'),
      bodyLimits: {
        default: envInt(env.BODY_LIMIT, 'BODY_LIMIT'),
        oauth: envInt(env.BODY_LIMIT_OAUTH, 'BODY_LIMIT_OAUTH'),
        forms: envInt(env.BODY_LIMIT_FORMS, 'BODY_LIMIT_FORMS'),
        webhooks: envInt(env.BODY_LIMIT_WEBHOOKS, 'BODY_LIMIT_WEBHOOKS'),
      },
    },
    routes: {
      cachePath: env.ROUTE_CACHE_PATH || undefined,
      controllersPath: env.ROUTE_CONTROLLERS_PATH || undefined,
    },
  }),
};
