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

/**
 * How long the server waits for a slow or idle client, instead of node's defaults (60 s for the
 * headers, 300 s for a request's body, 5 s for an idle keep-alive connection), and how long a
 * shutdown lets requests in flight finish before it closes every connection.
 */
export interface HttpTimeouts {
  /** From the first byte to the end of the headers. */
  headersMs: number;
  /** From the first byte to the end of the body (a slow upload is cut off after this). */
  requestMs: number;
  /** An idle keep-alive connection is closed after this. Keep it above a load balancer's own. */
  keepAliveMs: number;
  /** On SIGTERM/SIGINT: stop accepting, wait at most this for requests in flight, then close all. */
  shutdownGraceMs: number;
  /**
   * On SIGTERM/SIGINT, before that: keep serving this long while `/ready` answers 503, so a load
   * balancer stops sending new requests first. 0: stop accepting at once.
   */
  drainMs: number;
}

export const defaultHttpTimeouts: HttpTimeouts = {
  headersMs: 10_000,
  requestMs: 30_000,
  keepAliveMs: 5_000,
  shutdownGraceMs: 10_000,
  drainMs: 0,
};

/** Content-Security-Policy sources added to the strict defaults, by directive (`'img-src': ['https://cdn.example']`). */
export type CspSources = Partial<Record<string, string[]>>;

declare module '../core/config.js' {
  interface TollgateConfig {
    http: {
      host: string;
      port: number;
      bodyLimits: BodyLimits;
      csp: CspSources;
      timeouts: HttpTimeouts;
      /**
       * Reverse proxies (addresses or CIDR blocks) whose `X-Forwarded-For` names the client: the
       * audit log records that address. Empty (the default): the peer's address.
       */
      trustedProxies: string[];
    };
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
    http: {
      host: '127.0.0.1',
      port: 3000,
      bodyLimits: { ...defaultBodyLimits },
      csp: {},
      timeouts: { ...defaultHttpTimeouts },
      trustedProxies: [],
    },
    routes: { cachePath: 'storage/routes.json', controllersPath: 'app/controllers' },
  },
  fromEnv: (env) => ({
    http: {
      host: env.HOST || undefined,
      port: envInt(env.PORT, 'PORT'),
      trustedProxies: env.TRUSTED_PROXIES
        ? env.TRUSTED_PROXIES.split(',')
            .map((entry) => entry.trim())
            .filter(Boolean)
        : undefined,
      bodyLimits: {
        default: envInt(env.BODY_LIMIT, 'BODY_LIMIT'),
        oauth: envInt(env.BODY_LIMIT_OAUTH, 'BODY_LIMIT_OAUTH'),
        forms: envInt(env.BODY_LIMIT_FORMS, 'BODY_LIMIT_FORMS'),
        webhooks: envInt(env.BODY_LIMIT_WEBHOOKS, 'BODY_LIMIT_WEBHOOKS'),
      },
      timeouts: {
        headersMs: envInt(env.HTTP_HEADERS_TIMEOUT_MS, 'HTTP_HEADERS_TIMEOUT_MS'),
        requestMs: envInt(env.HTTP_REQUEST_TIMEOUT_MS, 'HTTP_REQUEST_TIMEOUT_MS'),
        keepAliveMs: envInt(env.HTTP_KEEP_ALIVE_TIMEOUT_MS, 'HTTP_KEEP_ALIVE_TIMEOUT_MS'),
        shutdownGraceMs: envInt(env.SHUTDOWN_GRACE_MS, 'SHUTDOWN_GRACE_MS'),
        drainMs: envInt(env.SHUTDOWN_DRAIN_MS, 'SHUTDOWN_DRAIN_MS'),
      },
    },
    routes: {
      cachePath: env.ROUTE_CACHE_PATH || undefined,
      controllersPath: env.ROUTE_CONTROLLERS_PATH || undefined,
    },
  }),
};
