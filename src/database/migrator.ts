import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import {
  type Kysely,
  type Migration,
  type MigrationProvider,
  type MigrationResultSet,
  Migrator,
} from 'kysely';

/**
 * Reads migrations from several folders (Tollgate's own and the application's). Names must sort
 * in the order they run; we use a `YYYY_MM_DD_HHMMSS_description` prefix.
 */
export class FolderMigrationProvider implements MigrationProvider {
  constructor(private readonly folders: readonly string[]) {}

  async getMigrations(): Promise<Record<string, Migration>> {
    const migrations: Record<string, Migration> = {};
    for (const folder of this.folders) {
      for (const [name, file] of await migrationFiles(folder)) {
        if (migrations[name]) throw new Error(`Two migrations are named ${name}.`);
        migrations[name] = (await import(pathToFileURL(join(folder, file)).href)) as Migration;
      }
    }
    return migrations;
  }
}

/** A folder's migrations as `[name, file]`, in name order (the name is the file's, less its extension). */
export async function migrationFiles(folder: string): Promise<[string, string][]> {
  return (await readdir(folder))
    .sort()
    .filter((file) => /\.(ts|js|mjs)$/.test(file) && !/\.(d|test)\.ts$/.test(file))
    .map((file) => [file.replace(/\.(ts|js|mjs)$/, ''), file]);
}

/**
 * Pending migrations run in name order even when one sorts before a migration already run, as
 * Laravel's `migrate` does: the folders come from different packages (a Tollgate upgrade may ship a
 * migration dated before the application's own latest one), so a strict order would refuse it.
 */
export function createMigrator(db: Kysely<any>, folders: readonly string[]): Migrator {
  return new Migrator({ db, provider: new FolderMigrationProvider(folders), allowUnorderedMigrations: true });
}

/** Runs pending migrations; throws with the failing migration's name. */
export async function migrateToLatest(
  db: Kysely<any>,
  folders: readonly string[],
): Promise<MigrationResultSet> {
  const result = await createMigrator(db, folders).migrateToLatest();
  assertSucceeded(result);
  return result;
}

export function assertSucceeded(result: MigrationResultSet): void {
  if (!result.error) return;
  const failed = result.results?.find((r) => r.status === 'Error');
  const reason = result.error instanceof Error ? result.error.message : String(result.error);
  throw new Error(`Migration ${failed?.migrationName ?? '(unknown)'} failed: ${reason}`, {
    cause: result.error,
  });
}
