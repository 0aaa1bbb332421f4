export { type Connection, connect, type Engine, engineOf, sqlitePath } from './connection.js';
export {
  assertSucceeded,
  coreMigrationsFolder,
  createMigrator,
  FolderMigrationProvider,
  migrateToLatest,
} from './migrator.js';
export { isPostgres, withIncrements, withTimestamps } from './schema.js';
export type {
  Database,
  NewUser,
  NullableTimestamp,
  SessionRow,
  SessionsTable,
  Timestamp,
  UserRow,
  UsersTable,
  UserUpdate,
} from './types.js';
