import { fileURLToPath } from 'node:url';

/** The audit log's tables (`audit_events`, `audit_purges`), registered by `observabilityProvider()`. */
export const auditMigrations = fileURLToPath(new URL('./migrations', import.meta.url));
