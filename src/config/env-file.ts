import { existsSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { parseEnv } from 'node:util';

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
  if (typeof parseEnv !== 'function') {
    process.emitWarning(
      `${file} is not read: Node.js ${process.versions.node} has no util.parseEnv (20.12+).`,
    );
    return undefined;
  }
  // Assigned through process.env rather than process.loadEnvFile, which writes the process's own
  // environment block: where process.env has been replaced by a plain object, it would see nothing.
  for (const [name, value] of Object.entries(parseEnv(readFileSync(file, 'utf8')))) {
    if (process.env[name] === undefined) process.env[name] = value;
  }
  return file;
}
