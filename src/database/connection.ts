import { mkdirSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import SQLite from 'better-sqlite3';
import { Kysely, PostgresDialect, type PostgresPool, type SqliteDatabase, SqliteDialect } from 'kysely';
import pg from 'pg';
import { createPrivateFile } from '../core/private-files.js';
import { dropWhenLost } from './lost-session-client.js';
import { tracedDialect } from './traced-dialect.js';
import type { Database } from './types.js';

export type Engine = 'sqlite' | 'postgres';

export interface Connection {
  db: Kysely<Database>;
  engine: Engine;
  /** Files that hold the data (SQLite's database, WAL and shared memory); none for PostgreSQL. */
  files: string[];
  /** PostgreSQL: the pool's connections now (metrics read it on a scrape); SQLite has no pool. */
  poolUsage?: () => PoolUsage;
  close(): Promise<void>;
}

/** `postgres://…` / `postgresql://…` is PostgreSQL; a path, `sqlite:path` or `:memory:` is SQLite. */
export function engineOf(url: string): Engine {
  return /^postgres(ql)?:\/\//.test(url) ? 'postgres' : 'sqlite';
}

export function sqlitePath(url: string): string {
  const path = url.replace(/^sqlite:(\/\/)?/, '');
  return path === ':memory:' ? path : resolve(path);
}

export interface PoolUsage {
  /** Connections open, busy or idle. */
  total: number;
  idle: number;
  /** Queries waiting for a connection. */
  waiting: number;
  /** Checkouts since start that had to wait for a connection (all were busy), and the seconds they waited. */
  waits: number;
  waitedSeconds: number;
}

const POOL_SIZE = 10;

export interface ConnectOptions {
  /** Told when the server drops a PostgreSQL connection (a restart, a failover, a killed backend). */
  onConnectionLost?: (err: Error) => void;
}

/** One Kysely connection from a URL. SQLite runs in WAL mode with foreign keys on. */
export function connect(url: string, options: ConnectOptions = {}): Connection {
  if (engineOf(url) === 'postgres') {
    const pool = new pg.Pool({ connectionString: url, max: POOL_SIZE });
    const lost = (err: Error) => options.onConnectionLost?.(err);
    // A client whose connection the server ends emits 'error': an idle one through the pool, a
    // checked-out one only on itself — unhandled, either would crash the process. The query it
    // was running fails (the request answers 5xx) and the pool drops the client, opening a new one
    // for the next request.
    pool.on('error', lost);
    pool.on('connect', (client) => client.on('error', lost));
    const waits = { count: 0, seconds: 0 };
    const db = new Kysely<Database>({
      dialect: tracedDialect(
        new PostgresDialect({ pool: countingWaits(pool, POOL_SIZE, waits) }),
        'postgresql',
      ),
    });
    const poolUsage = () => ({
      total: pool.totalCount,
      idle: pool.idleCount,
      waiting: pool.waitingCount,
      waits: waits.count,
      waitedSeconds: waits.seconds,
    });
    return { db, engine: 'postgres', files: [], poolUsage, close: () => db.destroy() };
  }
  const path = sqlitePath(url);
  if (path !== ':memory:') {
    mkdirSync(dirname(path), { recursive: true });
    createPrivateFile(path);
  }
  const sqlite = new SQLite(path);
  sqlite.pragma('journal_mode = WAL');
  // With WAL, NORMAL is durable against application crashes and skips an fsync per commit; only
  // a power loss can lose the last transactions. Every token issued is a commit, so this matters.
  sqlite.pragma('synchronous = NORMAL');
  sqlite.pragma('foreign_keys = ON');
  sqlite.pragma('busy_timeout = 5000');
  const db = new Kysely<Database>({
    dialect: tracedDialect(new SqliteDialect({ database: cachingStatements(sqlite) }), 'sqlite'),
  });
  const files = path === ':memory:' ? [] : [path, `${path}-wal`, `${path}-shm`];
  return { db, engine: 'sqlite', files, close: () => db.destroy() };
}

/**
 * The pool as Kysely uses it, counting the checkouts that wait for a busy connection: those queued
 * behind more callers than there are idle connections and room for new ones.
 */
function countingWaits(pool: pg.Pool, max: number, waits: { count: number; seconds: number }): PostgresPool {
  return {
    connect() {
      const free = pool.idleCount + max - pool.totalCount;
      const checkout = pool.connect().then(dropWhenLost);
      if (pool.waitingCount <= free) return checkout;
      waits.count++;
      const start = performance.now();
      return checkout.finally(() => {
        waits.seconds += (performance.now() - start) / 1000;
      });
    },
    end: () => pool.end(),
  };
}

const STATEMENT_CACHE_SIZE = 500;

/**
 * Kysely's SQLite driver prepares every query anew; better-sqlite3 keeps no cache, and preparing
 * costs about as much as running a primary-key lookup or a one-row insert. Statements are kept by
 * SQL text (SQLite re-prepares one itself after a schema change); one still being iterated by a
 * streamed query is not shared.
 */
function cachingStatements(sqlite: SQLite.Database): SqliteDatabase {
  const statements = new Map<string, SQLite.Statement>();
  return {
    close: () => {
      statements.clear();
      sqlite.close();
    },
    prepare: (sql: string) => {
      const cached = statements.get(sql);
      if (cached && !cached.busy) return cached;
      const statement = sqlite.prepare(sql);
      if (!cached) {
        if (statements.size >= STATEMENT_CACHE_SIZE) statements.clear();
        statements.set(sql, statement);
      }
      return statement;
    },
  };
}
