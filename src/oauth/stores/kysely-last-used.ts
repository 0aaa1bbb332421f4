import type { Kysely } from 'kysely';
import type { Database } from '../../database/types.js';
import type { LastUsedTable, LastUsedWriter } from '../guard/last-used.js';

/** One `UPDATE … WHERE id IN (…)` per table and flush (in chunks of 500 ids). */
export class KyselyLastUsedWriter implements LastUsedWriter {
  constructor(private readonly db: Kysely<Database>) {}

  async write(table: LastUsedTable, ids: readonly string[], at: string): Promise<void> {
    for (let i = 0; i < ids.length; i += 500) {
      await this.db
        .updateTable(table)
        .set({ last_used_at: at })
        .where('id', 'in', ids.slice(i, i + 500))
        .execute();
    }
  }
}
