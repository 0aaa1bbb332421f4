import { DEFAULT_MIGRATION_TABLE, type Kysely, sql } from 'kysely';
import { migrationFiles } from './migrator.js';

/**
 * Whether every migration in `folders` has run, for a readiness probe that asks every few seconds.
 * The names are read from the folders (file names only: nothing is imported) once per set of
 * folders; once all have run, that set is known current and costs nothing more. A module registered
 * later (another set of folders) is checked afresh; a migration rolled back under a running
 * instance is not noticed until it restarts.
 */
export class MigrationsCurrent {
  /** The folders (joined) whose migrations have all run. */
  #current: string | undefined;
  #names: { folders: string; names: string[] } | undefined;

  constructor(private readonly db: Kysely<any>) {}

  /** Rejects naming the first migration that has not run. */
  async check(folders: readonly string[]): Promise<void> {
    const key = folders.join('\n');
    if (this.#current === key) return;
    const names = this.#names?.folders === key ? this.#names.names : await namesIn(folders);
    this.#names = { folders: key, names };
    const ran = new Set(await this.#ran());
    const pending = names.filter((name) => !ran.has(name));
    if (pending.length) throw new Error(`${pending.length} migrations have not run: ${pending[0]}…`);
    this.#current = key;
  }

  async #ran(): Promise<string[]> {
    try {
      const { rows } = await sql<{
        name: string;
      }>`select name from ${sql.table(DEFAULT_MIGRATION_TABLE)}`.execute(this.db);
      return rows.map((row) => row.name);
    } catch (err) {
      // No migration table yet: nothing has run. Any other failure is the probe's to report.
      if (/no such table|does not exist/i.test((err as Error).message)) return [];
      throw err;
    }
  }
}

async function namesIn(folders: readonly string[]): Promise<string[]> {
  const lists = await Promise.all(folders.map((folder) => migrationFiles(folder)));
  return lists.flat().map(([name]) => name);
}
