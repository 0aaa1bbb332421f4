import { fileURLToPath } from 'node:url';

/** The rate-limit counters' table, migrated by every application (the kernel owns it). */
export const rateLimitMigrations = fileURLToPath(new URL('./migrations', import.meta.url));
