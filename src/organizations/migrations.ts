import { fileURLToPath } from 'node:url';

/** The organizations module's migrations (organizations, members, invitations), registered by `organizationsProvider()`. */
export const organizationsMigrations = fileURLToPath(new URL('./migrations', import.meta.url));
