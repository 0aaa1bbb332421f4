import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { accountsConfig } from '../accounts/config.js';
import { authConfig } from '../auth/config.js';
import { billingConfig } from '../billing/config.js';
import {
  type ConfigSlice,
  coreConfig,
  type DeepPartial,
  deepFreeze,
  type Env,
  mergeConfig,
  type TollgateConfig,
} from '../core/config.js';
import { databaseConfig } from '../database/config.js';
import { httpConfig } from '../http/config.js';
import { mailConfig } from '../mail/config.js';
import { oauthConfig } from '../oauth/config.js';
import { observabilityConfig } from '../observability/config.js';
import { plansConfig } from '../plans/config.js';
import { signinConfig } from '../signin/config.js';

const slices: ConfigSlice<keyof TollgateConfig>[] = [
  coreConfig,
  databaseConfig,
  httpConfig,
  authConfig,
  oauthConfig,
  billingConfig,
  plansConfig,
  mailConfig,
  accountsConfig,
  signinConfig,
  observabilityConfig,
] as ConfigSlice<keyof TollgateConfig>[];

/** Every module's documented defaults, in one object. */
export const defaults: TollgateConfig = Object.assign({}, ...slices.map((slice) => slice.defaults));

/** Builds a complete, frozen configuration over the documented defaults. */
export function defineConfig(...layers: DeepPartial<TollgateConfig>[]): TollgateConfig {
  let config: TollgateConfig = structuredClone(defaults);
  for (const layer of layers) config = mergeConfig(config, layer);
  if (!config.database.url) config.database.url = resolve(config.storagePath, 'tollgate.sqlite');
  return deepFreeze(config);
}

/** The configuration layer read from environment variables (the README lists them all). */
export function configFromEnv(env: Env = process.env): DeepPartial<TollgateConfig> {
  return slices.reduce<DeepPartial<TollgateConfig>>((out, slice) => mergeConfig(out, slice.fromEnv(env)), {});
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
  env: Env = process.env,
): Promise<TollgateConfig> {
  return defineConfig(base, await configFromFile(), configFromEnv(env));
}

export type { DeepPartial, TollgateConfig };
