import { fileURLToPath } from 'node:url';

/** The folder of the auth module's migrations, registered by its service provider. */
export const authMigrations = fileURLToPath(new URL('./migrations', import.meta.url));
