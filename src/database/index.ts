export { databaseConfig } from './config.js';
export { type Connection, connect, type Engine, engineOf, sqlitePath } from './connection.js';
export { DbKey, EngineKey } from './keys.js';
export {
  assertSucceeded,
  createMigrator,
  FolderMigrationProvider,
  migrateToLatest,
} from './migrator.js';
export { isPostgres, withIncrements, withTimestamps } from './schema.js';
export type { Database, NullableTimestamp, Timestamp } from './types.js';
