import { fileURLToPath } from 'node:url';

/** The accounts module's migrations (`email_verified_at`, the link tokens), registered by `accountsProvider()`. */
export const accountsMigrations = fileURLToPath(new URL('./migrations', import.meta.url));
