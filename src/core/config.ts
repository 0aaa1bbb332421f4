/**
 * Every module's settings, one slice per module. This file declares the slice every module shares;
 * each module adds its own from its `config.ts` by augmenting this interface, and exports the
 * slice's defaults and environment reader (see `ConfigSlice`).
 */
export interface TollgateConfig {
  app: {
    name: string;
    /** Public URL of the service; `https:` makes cookies Secure. */
    url: string;
    env: 'development' | 'production' | 'test';
    /** Base64 application key (32 bytes). Empty: read or generate `storage/app.key`. */
    key: string;
  };
  storagePath: string;
  /** `keyPrefix` starts every Redis key Tollgate writes; instances that share limits share it. */
  redis: { url: string; keyPrefix: string };
  log: { level: string };
}

export type DeepPartial<T> = {
  [K in keyof T]?: T[K] extends object ? (T[K] extends unknown[] ? T[K] : DeepPartial<T[K]>) : T[K];
};

export type Env = Record<string, string | undefined>;

/** A module's part of the configuration: its documented defaults and the environment variables it reads. */
export interface ConfigSlice<K extends keyof TollgateConfig> {
  defaults: Pick<TollgateConfig, K>;
  fromEnv(env: Env): DeepPartial<Pick<TollgateConfig, K>>;
}

export const coreConfig: ConfigSlice<'app' | 'storagePath' | 'redis' | 'log'> = {
  defaults: {
    app: { name: 'Tollgate', url: 'http://127.0.0.1:3000', env: 'development', key: '' },
    storagePath: 'storage',
    redis: { url: '', keyPrefix: 'tollgate:' },
    log: { level: 'info' },
  },
  fromEnv: (env) => {
    const port = envInt(env.PORT, 'PORT');
    const host = env.HOST || undefined;
    return {
      app: {
        name: env.APP_NAME || undefined,
        url: env.APP_URL || (port || host ? `http://${host ?? '127.0.0.1'}:${port ?? 3000}` : undefined),
        env: (env.APP_ENV as TollgateConfig['app']['env']) || undefined,
        key: env.APP_KEY || undefined,
      },
      storagePath: env.STORAGE_PATH || undefined,
      redis: { url: env.REDIS_URL || undefined, keyPrefix: env.REDIS_PREFIX || undefined },
      log: { level: env.LOG_LEVEL || undefined },
    };
  },
};

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Deep-merges `over` onto `base`; arrays and scalars replace, `undefined` keeps the base value. */
export function mergeConfig<T>(base: T, over: unknown): T {
  if (!isPlainObject(base) || !isPlainObject(over)) return (over === undefined ? base : over) as T;
  const out: Record<string, unknown> = { ...base };
  for (const [k, v] of Object.entries(over)) {
    if (v !== undefined) out[k] = mergeConfig((base as Record<string, unknown>)[k], v);
  }
  return out as T;
}

export function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null) {
    for (const v of Object.values(value)) deepFreeze(v);
    Object.freeze(value);
  }
  return value;
}

export function envInt(value: string | undefined, name: string): number | undefined {
  if (value === undefined || value === '') return undefined;
  const n = Number(value);
  if (!Number.isInteger(n) || n < 0) throw new Error(`${name} must be a whole number, got "${value}".`);
  return n;
}

export function envBool(value: string | undefined): boolean | undefined {
  if (value === undefined || value === '') return undefined;
  return ['1', 'true', 'yes', 'on'].includes(value.toLowerCase());
}
