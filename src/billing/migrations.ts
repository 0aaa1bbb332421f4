import { fileURLToPath } from 'node:url';

/** The folder of the billing module's migrations, registered by its service provider. */
export const billingMigrations = fileURLToPath(new URL('./migrations', import.meta.url));
