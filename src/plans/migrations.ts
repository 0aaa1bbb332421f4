import { fileURLToPath } from 'node:url';

/** The folder of the plans module's migrations (the usage aggregates), registered by `plansProvider()`. */
export const plansMigrations = fileURLToPath(new URL('./migrations', import.meta.url));
