import { resolve } from 'node:path';
import type { Hono } from 'hono';
import { type Kysely, sql } from 'kysely';
import { type Clock, SystemClock } from '../core/clock.js';
import type { TollgateConfig } from '../core/config.js';
import { Container } from '../core/container.js';
import { EventDispatcher } from '../core/events.js';
import { ClockKey, ConfigKey, EventsKey, LoggerKey } from '../core/keys.js';
import { createLogger, type Logger } from '../core/logger.js';
import { warnAboutSharedFiles } from '../core/private-files.js';
import { type Connection, connect, type Engine, type PoolUsage } from '../database/connection.js';
import { DbKey, EngineKey } from '../database/keys.js';
import { MigrationsCurrent } from '../database/migrations-current.js';
import { migrateToLatest } from '../database/migrator.js';
import type { Database } from '../database/types.js';
import { Router } from '../http/router.js';
import { rateLimitMigrations } from '../rate-limits/migrations.js';
import { RateLimits } from '../rate-limits/rate-limits.js';
import { AppEncryptionKey, appKeyPath, loadAppKey } from './app-key.js';
import { jobRunMigrations } from './job-runs.js';
import { Readiness } from './readiness.js';
import { holdTickObjectShape } from './tick-object-shape.js';

/**
 * A module's way in: `register` binds services and declares routes, `boot` runs once everything is
 * registered. Laravel's service providers, without the static facades.
 */
export interface ServiceProvider {
  readonly name: string;
  /** Folders of migrations this module owns; every registered module's run together, by name. */
  readonly migrations?: readonly string[];
  register?(app: Application): void | Promise<void>;
  boot?(app: Application): void | Promise<void>;
}

export interface ApplicationOptions {
  clock?: Clock;
  logger?: Logger;
  providers?: ServiceProvider[];
}

export class Application {
  readonly container = new Container();
  readonly router = new Router();
  readonly events = new EventDispatcher();
  readonly providers: ServiceProvider[] = [];
  readonly migrationFolders: string[] = [];
  /** Files that hold secrets; `boot()` warns about each one other users of the machine can read. */
  readonly privateFiles: string[] = [];
  /** What `/ready` checks; modules add theirs in `register` or `boot`. */
  readonly readiness: Readiness;
  readonly #connection: Connection;
  #migrations: MigrationsCurrent | undefined;
  #http: Hono | undefined;
  #closing: Promise<void> | undefined;
  readonly #closers: (() => Promise<void> | void)[] = [];

  constructor(
    readonly config: TollgateConfig,
    readonly clock: Clock,
    readonly logger: Logger,
    readonly key: Uint8Array,
  ) {
    this.#connection = connect(config.database.url, {
      onConnectionLost: (err) => logger.warn({ err: err.message }, 'a database connection was lost'),
    });
    this.privateFiles.push(...this.#connection.files);
    if (!config.app.key) this.privateFiles.push(appKeyPath(config.storagePath));
    this.container
      .instance(Application, this)
      .instance(Container, this.container)
      .instance(Router, this.router)
      .instance(ConfigKey, config)
      .instance(DbKey, this.#connection.db)
      .instance(EngineKey, this.#connection.engine)
      .instance(ClockKey, clock)
      .instance(LoggerKey, logger)
      .instance(EventsKey, this.events)
      .instance(EventDispatcher, this.events)
      .instance(AppEncryptionKey, key);
    // Rate limits count in Redis or in this database, so every instance shares them.
    const limits = new RateLimits({
      db: this.#connection.db,
      clock,
      logger,
      redisUrl: config.redis.url,
      redisPrefix: config.redis.keyPrefix,
    });
    this.container.instance(RateLimits, limits);
    this.migrationFolders.push(rateLimitMigrations, jobRunMigrations);
    this.onClose(() => limits.close());
    this.readiness = new Readiness(logger)
      .add('database', async () => {
        await sql`select 1`.execute(this.db);
      })
      .add('migrations', () => this.#migrationsCurrent());
    if (config.redis.url) this.readiness.add('redis', () => limits.pingRedis());
  }

  /** Rejects while a migration of a registered module has not run (an instance newer than its database). */
  #migrationsCurrent(): Promise<void> {
    this.#migrations ??= new MigrationsCurrent(this.db);
    return this.#migrations.check(this.migrationFolders);
  }

  /** Builds the application and registers its providers; call `boot()` (or `start()`) next. */
  static async create(config: TollgateConfig, options: ApplicationOptions = {}): Promise<Application> {
    holdTickObjectShape();
    const logger = options.logger ?? createLogger(config.log.level);
    const key = loadAppKey(config.app.key, config.storagePath);
    const app = new Application(config, options.clock ?? new SystemClock(), logger, key);
    for (const provider of options.providers ?? []) await app.register(provider);
    return app;
  }

  get db(): Kysely<Database> {
    return this.#connection.db;
  }

  get engine(): Engine {
    return this.#connection.engine;
  }

  /** PostgreSQL: the connection pool's usage now; `undefined` on SQLite. */
  poolUsage(): PoolUsage | undefined {
    return this.#connection.poolUsage?.();
  }

  async register(provider: ServiceProvider): Promise<this> {
    this.providers.push(provider);
    this.migrationFolders.push(...(provider.migrations ?? []));
    await provider.register?.(this);
    return this;
  }

  async migrate(): Promise<void> {
    await migrateToLatest(this.db, this.migrationFolders);
  }

  /** Boots every provider and compiles the routes. Idempotent. */
  async boot(): Promise<Hono> {
    if (this.#http) return this.#http;
    this.router.baseUrl ||= this.config.app.url;
    this.router.useHttpConfig(this.config.http);
    const controllers = this.config.routes.controllersPath;
    if (controllers) this.router.controllers.useDefaultRoot(controllers);
    // `tollgate route:cache` output replaces the declared routes (providers may check `router.cachedFrom`).
    this.router.loadCache(resolve(this.config.routes.cachePath));
    for (const provider of this.providers) await provider.boot?.(this);
    warnAboutSharedFiles(this.logger, this.privateFiles);
    await this.container.make(RateLimits).start();
    this.#http = this.router.commit(this.container, this.logger);
    return this.#http;
  }

  get http(): Hono {
    if (!this.#http) throw new Error('The application has not booted yet: call `await app.boot()`.');
    return this.#http;
  }

  /**
   * Web-standard entry point: tests call it directly, the server passes every request to it (with
   * `@hono/node-server`'s `{ incoming, outgoing }` as `env`, which the security headers and the
   * per-address rate limits use).
   */
  fetch = (request: Request, env?: unknown): Response | Promise<Response> => this.http.fetch(request, env);

  /** Runs `fn` when the application closes, before the database does (last registered, first run). */
  onClose(fn: () => Promise<void> | void): this {
    this.#closers.push(fn);
    return this;
  }

  async close(): Promise<void> {
    this.#closing ??= (async () => {
      for (const fn of [...this.#closers].reverse()) await fn();
      await this.#connection.close();
    })();
    await this.#closing;
  }
}
