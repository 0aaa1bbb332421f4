import { fileURLToPath } from 'node:url';

/** The mail module's migrations (the outbox), registered by `mailProvider()`. */
export const mailMigrations = fileURLToPath(new URL('./migrations', import.meta.url));
