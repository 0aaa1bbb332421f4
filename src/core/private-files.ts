import { closeSync, openSync, statSync } from 'node:fs';
import type { Logger } from 'pino';

/** Group and other permission bits: a private file has none. */
const SHARED_BITS = 0o077;

/**
 * Creates an empty file readable and writable by its owner only (0600), unless it exists. SQLite
 * gives its `-wal` and `-shm` files the mode of the database file, so creating the database this
 * way keeps all three private.
 */
export function createPrivateFile(path: string): void {
  try {
    closeSync(openSync(path, 'wx', 0o600));
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
  }
}

/** The mode of each existing file that its group or other users may access. */
export function sharedFiles(paths: readonly string[]): { path: string; mode: string }[] {
  const shared: { path: string; mode: string }[] = [];
  for (const path of paths) {
    let mode: number;
    try {
      mode = statSync(path).mode & 0o777;
    } catch {
      continue;
    }
    if (mode & SHARED_BITS) shared.push({ path, mode: mode.toString(8).padStart(4, '0') });
  }
  return shared;
}

/** One warning per private file that others can access, with the command that fixes it. */
export function warnAboutSharedFiles(logger: Logger, paths: readonly string[]): void {
  for (const { path, mode } of sharedFiles(paths)) {
    logger.warn(
      { file: path, mode },
      `${path} holds secrets but its mode is ${mode}: other users of this machine can read it. Run: chmod 600 '${path}'`,
    );
  }
}
