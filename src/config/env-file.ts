import { existsSync } from 'node:fs';
import { resolve } from 'node:path';

/**
 * Reads the `.env` file of `dir` (the project root: where the service and the `tollgate` command
 * run) into `process.env`, so both see one configuration. A variable already set in the
 * environment wins over the file, as with `node --env-file`. Returns the file's path, or
 * undefined when there is none.
 *
 * @example
 * loadEnvFile(); // before createApp()
 */
export function loadEnvFile(dir: string = process.cwd()): string | undefined {
  const file = resolve(dir, '.env');
  if (!existsSync(file)) return undefined;
  if (typeof process.loadEnvFile !== 'function') {
    process.emitWarning(
      `${file} is not read: Node.js ${process.versions.node} has no process.loadEnvFile (20.12+).`,
    );
    return undefined;
  }
  process.loadEnvFile(file);
  return file;
}
