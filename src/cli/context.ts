import { existsSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { pino } from 'pino';
import { createLogger } from '../core/logger.js';
import type { Application, ApplicationOptions } from '../kernel/application.js';
import { AuditLog } from '../observability/audit/audit-log.js';

/** Thrown for bad input: the CLI prints the message (no stack) and exits with code 1. */
export class CliError extends Error {
  override name = 'CliError';
}

/** Ends the command with this exit code, printing nothing more (what it had to say is printed). */
export class CliExit extends Error {
  override name = 'CliExit';
  constructor(readonly code: number) {
    super(`exit ${code}`);
  }
}

/**
 * The module that exports the application: TOLLGATE_APP, else the `tollgate.app` field of the
 * current folder's package.json, else this repository's reference service.
 */
function applicationModule(): string {
  if (process.env.TOLLGATE_APP) return resolve(process.env.TOLLGATE_APP);
  const manifest = resolve('package.json');
  if (existsSync(manifest)) {
    const app = (JSON.parse(readFileSync(manifest, 'utf8')) as { tollgate?: { app?: unknown } }).tollgate
      ?.app;
    if (typeof app === 'string') return resolve(app);
  }
  return resolve('app/bootstrap.ts');
}

/**
 * The application the CLI works on: its module exports `createApp(): Promise<Application>`, unbooted.
 */
export async function loadApplication(): Promise<Application> {
  const entry = applicationModule();
  if (!existsSync(entry)) {
    throw new CliError(
      `No application found at ${entry}. Set TOLLGATE_APP (or "tollgate": { "app": "./server.mjs" } in package.json) to the module that exports createApp().`,
    );
  }
  const mod = (await import(pathToFileURL(entry).href)) as {
    createApp?: (overrides?: object, options?: ApplicationOptions) => Promise<Application>;
  };
  if (typeof mod.createApp !== 'function') throw new CliError(`${entry} does not export createApp().`);
  // A command's output is stdout (and may be --json); the application's logs go to stderr.
  const logger = createLogger(process.env.LOG_LEVEL || 'warn', pino.destination(2));
  const app = await mod.createApp({}, { logger });
  // What a command changes, an operator did: the audit log names the actor so.
  if (app.container.has(AuditLog)) app.container.make(AuditLog).defaultActor = 'cli';
  announce(app);
  return app;
}

/**
 * Which service the command works on, on stderr: a token signed for another `APP_URL` than the
 * server's is refused there with no other hint. The database URL's password is left out.
 */
function announce(app: Application): void {
  if (process.env.LOG_LEVEL === 'silent') return;
  const database = app.config.database.url.replace(/\/\/([^:@/]+):[^@/]*@/, '//$1:***@');
  const source = existsSync(resolve('.env')) ? ' (environment and .env)' : '';
  process.stderr.write(`tollgate: APP_URL ${app.config.app.url}, database ${database}${source}\n`);
}

/** Runs `fn` with the application, closing its database afterwards. */
export async function withApplication<T>(fn: (app: Application) => Promise<T>): Promise<T> {
  const app = await loadApplication();
  try {
    return await fn(app);
  } finally {
    await app.close();
  }
}
