import { fileURLToPath } from 'node:url';

const folder = (path: string) => fileURLToPath(new URL(path, import.meta.url));

/** The sign-in module's migrations, one folder per method, registered by `signinProvider()`. */
export const signinMigrations: readonly string[] = [
  folder('./passkeys/migrations'),
  folder('./upstream/migrations'),
  folder('./remembered-devices/migrations'),
];
