import { loadConfig } from '../config/index.js';
import type { TollgateConfig } from '../core/config.js';
import { CliError, loadApplication } from './context.js';

/** The application's configuration if there is an application, else the config file and environment. */
export async function sandboxConfig(): Promise<TollgateConfig> {
  try {
    const app = await loadApplication();
    try {
      return app.config;
    } finally {
      await app.close();
    }
  } catch (err) {
    if (!(err instanceof CliError)) throw err;
    return loadConfig();
  }
}

/** Resolves with the first SIGINT/SIGTERM. Call it before printing a banner: a reader may signal at once. */
export function untilSignal(): Promise<string> {
  return new Promise((resolve) => {
    process.once('SIGINT', () => resolve('SIGINT'));
    process.once('SIGTERM', () => resolve('SIGTERM'));
  });
}

export function parsePort(value: string): number {
  const port = Number(value);
  if (!Number.isInteger(port) || port < 0 || port > 65_535) throw new CliError('--port must be 0–65535.');
  return port;
}
