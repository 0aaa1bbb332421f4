import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

export type SigningAlgorithm = 'RS256' | 'ES256' | 'EdDSA';
export type BillingEdition = 'stripe' | 'braintree';

export interface PlanConfig {
  /** The plan's ID at the provider (Stripe price/plan id, Braintree plan id). */
  id: string;
  name: string;
  /** In the provider's amount unit: minor units for Stripe, a decimal string for Braintree. */
  amount: number | string;
  interval: 'month' | 'year';
  trialDays?: number;
  description?: string;
}

export interface CouponConfig {
  id: string;
  percentOff?: number;
  amountOff?: number | string;
}

export interface TollgateConfig {
  app: {
    name: string;
    /** Public URL of the service; `https:` makes cookies Secure. */
    url: string;
    env: 'development' | 'production' | 'test';
    /** Base64 application key (32 bytes). Empty: read or generate `storage/app.key`. */
    key: string;
  };
  http: { host: string; port: number };
  storagePath: string;
  database: { url: string };
  redis: { url: string };
  log: { level: string };
  session: { cookie: string; lifetimeMinutes: number };
  csrf: { except: string[] };
  oauth: {
    scopes: Record<string, string>;
    accessTokenTtlSeconds: number;
    refreshTokenTtlSeconds: number;
    personalAccessTokenTtlSeconds: number;
    authCodeTtlSeconds: number;
    implicitGrant: boolean;
    allowPlainPkce: boolean;
    signingAlgorithm: SigningAlgorithm;
    /** PEM keys from the environment (containers); empty means `storage/oauth-*.key`. */
    privateKey: string;
    publicKey: string;
    cookieName: string;
  };
  billing: {
    edition: BillingEdition;
    currency: string;
    currencySymbol: string;
    plans: PlanConfig[];
    coupons: CouponConfig[];
    stripe: { key: string; secret: string; webhookSecret: string; apiBase: string };
    braintree: {
      environment: string;
      merchantId: string;
      publicKey: string;
      privateKey: string;
      apiBase: string;
    };
  };
  /** `controllersPath`: the root that string actions (`'Admin/PhotoController@show'`) are relative to. */
  routes: { cachePath: string; controllersPath: string };
}

export type DeepPartial<T> = {
  [K in keyof T]?: T[K] extends object ? (T[K] extends unknown[] ? T[K] : DeepPartial<T[K]>) : T[K];
};

const YEAR = 365 * 24 * 3600;

export const defaults: TollgateConfig = {
  app: { name: 'Tollgate', url: 'http://127.0.0.1:3000', env: 'development', key: '' },
  http: { host: '127.0.0.1', port: 3000 },
  storagePath: 'storage',
  database: { url: '' },
  redis: { url: '' },
  log: { level: 'info' },
  session: { cookie: 'tollgate_session', lifetimeMinutes: 120 },
  csrf: { except: [] },
  oauth: {
    scopes: {},
    accessTokenTtlSeconds: YEAR,
    refreshTokenTtlSeconds: 2 * YEAR,
    personalAccessTokenTtlSeconds: YEAR,
    authCodeTtlSeconds: 600,
    implicitGrant: false,
    allowPlainPkce: false,
    signingAlgorithm: 'RS256',
    privateKey: '',
    publicKey: '',
    cookieName: 'app_token',
  },
  billing: {
    edition: 'stripe',
    currency: 'usd',
    currencySymbol: '$',
    plans: [],
    coupons: [],
    stripe: { key: '', secret: '', webhookSecret: '', apiBase: '' },
    braintree: { environment: 'sandbox', merchantId: '', publicKey: '', privateKey: '', apiBase: '' },
  },
  routes: { cachePath: 'storage/routes.json', controllersPath: 'app/controllers' },
};

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function merge<T>(base: T, over: unknown): T {
  if (!isPlainObject(base) || !isPlainObject(over)) return (over === undefined ? base : over) as T;
  const out: Record<string, unknown> = { ...base };
  for (const [k, v] of Object.entries(over)) {
    if (v !== undefined) out[k] = merge((base as Record<string, unknown>)[k], v);
  }
  return out as T;
}

function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null) {
    for (const v of Object.values(value)) deepFreeze(v);
    Object.freeze(value);
  }
  return value;
}

/** Builds a complete, frozen configuration over the documented defaults. */
export function defineConfig(...layers: DeepPartial<TollgateConfig>[]): TollgateConfig {
  let config: TollgateConfig = structuredClone(defaults);
  for (const layer of layers) config = merge(config, layer);
  if (!config.database.url) config.database.url = resolve(config.storagePath, 'tollgate.sqlite');
  return deepFreeze(config);
}

function int(value: string | undefined, name: string): number | undefined {
  if (value === undefined || value === '') return undefined;
  const n = Number(value);
  if (!Number.isInteger(n) || n < 0) throw new Error(`${name} must be a whole number, got "${value}".`);
  return n;
}

function bool(value: string | undefined): boolean | undefined {
  if (value === undefined || value === '') return undefined;
  return ['1', 'true', 'yes', 'on'].includes(value.toLowerCase());
}

/** The configuration layer read from environment variables (the README lists them all). */
export function configFromEnv(env: NodeJS.ProcessEnv = process.env): DeepPartial<TollgateConfig> {
  const port = int(env.PORT, 'PORT');
  const host = env.HOST || undefined;
  return {
    app: {
      name: env.APP_NAME || undefined,
      url: env.APP_URL || (port || host ? `http://${host ?? '127.0.0.1'}:${port ?? 3000}` : undefined),
      env: (env.APP_ENV as TollgateConfig['app']['env']) || undefined,
      key: env.APP_KEY || undefined,
    },
    http: { host, port },
    storagePath: env.STORAGE_PATH || undefined,
    database: { url: env.DATABASE_URL || undefined },
    redis: { url: env.REDIS_URL || undefined },
    log: { level: env.LOG_LEVEL || undefined },
    session: {
      cookie: env.SESSION_COOKIE || undefined,
      lifetimeMinutes: int(env.SESSION_LIFETIME, 'SESSION_LIFETIME'),
    },
    oauth: {
      accessTokenTtlSeconds: int(env.OAUTH_ACCESS_TOKEN_TTL, 'OAUTH_ACCESS_TOKEN_TTL'),
      refreshTokenTtlSeconds: int(env.OAUTH_REFRESH_TOKEN_TTL, 'OAUTH_REFRESH_TOKEN_TTL'),
      implicitGrant: bool(env.OAUTH_IMPLICIT_GRANT),
      signingAlgorithm: (env.OAUTH_SIGNING_ALG as SigningAlgorithm) || undefined,
      privateKey: env.OAUTH_PRIVATE_KEY || undefined,
      publicKey: env.OAUTH_PUBLIC_KEY || undefined,
    },
    billing: {
      edition: (env.BILLING_EDITION as BillingEdition) || undefined,
      currency: env.BILLING_CURRENCY || undefined,
      currencySymbol: env.BILLING_CURRENCY_SYMBOL || undefined,
      stripe: {
        key: env.STRIPE_KEY || undefined,
        secret: env.STRIPE_SECRET || undefined,
        webhookSecret: env.STRIPE_WEBHOOK_SECRET || undefined,
        apiBase: env.STRIPE_API_BASE || undefined,
      },
      braintree: {
        environment: env.BRAINTREE_ENVIRONMENT || undefined,
        merchantId: env.BRAINTREE_MERCHANT_ID || undefined,
        publicKey: env.BRAINTREE_PUBLIC_KEY || undefined,
        privateKey: env.BRAINTREE_PRIVATE_KEY || undefined,
        apiBase: env.BRAINTREE_API_BASE || undefined,
      },
    },
    routes: {
      cachePath: env.ROUTE_CACHE_PATH || undefined,
      controllersPath: env.ROUTE_CONTROLLERS_PATH || undefined,
    },
  };
}

/** The application's optional config file (`tollgate.config.ts` by default) exporting a partial config. */
export async function configFromFile(path = process.env.TOLLGATE_CONFIG || 'tollgate.config.ts') {
  const file = resolve(path);
  if (!existsSync(file)) return {};
  const mod = (await import(pathToFileURL(file).href)) as { default?: DeepPartial<TollgateConfig> };
  return mod.default ?? {};
}

/** Defaults, then the config file, then the environment. */
export async function loadConfig(
  base: DeepPartial<TollgateConfig> = {},
  env: NodeJS.ProcessEnv = process.env,
): Promise<TollgateConfig> {
  return defineConfig(base, await configFromFile(), configFromEnv(env));
}
