import { fileURLToPath } from 'node:url';

/** The auth module's migrations (sessions), registered by its service provider. */
export const authMigrations = fileURLToPath(new URL('./migrations', import.meta.url));

/** Tollgate's own `users` table: registered only when the users provider is the default one. */
export const usersTableMigrations = fileURLToPath(new URL('./migrations/users', import.meta.url));
