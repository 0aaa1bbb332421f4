import { fileURLToPath } from 'node:url';

/** The folder of the oauth module's migrations, registered by its service provider. */
export const oauthMigrations = fileURLToPath(new URL('./migrations', import.meta.url));
