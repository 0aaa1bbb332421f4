/**
 * `tollgate/database`: the connection (SQLite or PostgreSQL from one URL) and the `Database`
 * interface that each module, and the application, augments with its tables.
 */

export { databaseConfig } from './config.js';
export type { Connection, Engine } from './connection.js';
export { connect } from './connection.js';
export { DbKey, EngineKey } from './keys.js';
export { migrateToLatest } from './migrator.js';
export type { Database, NullableTimestamp, Timestamp } from './types.js';
