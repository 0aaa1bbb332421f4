import type { Kysely } from 'kysely';
import type { User } from '../../auth/user.js';
import type { Clock } from '../../core/clock.js';
import type { Database } from '../../database/types.js';
import { ACCOUNT_COLUMNS, EXPORT_TABLES } from './export-tables.js';

export interface AccountExportDeps {
  db: Kysely<Database>;
  clock: Clock;
  /** Billing, when registered: the user's invoices (drafts and open ones too). */
  invoices?: (user: User) => Promise<unknown[]>;
  /** OAuth, when registered: the applications the user approved, and what for. */
  authorizedApps?: (userId: number) => Promise<unknown[]>;
}

/** "Download my data": one JSON document, a key per table (`sessions`, `api_keys`, …). */
export type AccountData = {
  format: string;
  exported_at: string;
  account: Record<string, unknown>;
} & Record<string, unknown>;

/**
 * Everything kept about a user, for "download my data": their account, and their rows in every
 * table of `EXPORT_TABLES` that this application has (a module not registered has no tables), with
 * the columns listed there only. Tables are keyed by name, so what the export holds is what the
 * database holds, and a table of user data missing from it is easy to see.
 */
export class AccountExport {
  #tables: Promise<Set<string>> | undefined;

  constructor(private readonly deps: AccountExportDeps) {}

  async export(user: User): Promise<AccountData> {
    const { db, clock } = this.deps;
    const tables = await this.tables();
    const data: AccountData = {
      format: 'tollgate-account-export/1',
      exported_at: clock.now().toISOString(),
      account: Object.fromEntries(
        ACCOUNT_COLUMNS.filter((c) => (user as unknown as Record<string, unknown>)[c] !== undefined).map(
          (c) => [c, (user as unknown as Record<string, unknown>)[c]],
        ),
      ),
    };
    const untyped = db as unknown as Kysely<Record<string, Record<string, unknown>>>;
    for (const { table, columns, userIdAsText } of EXPORT_TABLES) {
      if (!tables.has(table)) continue;
      data[table] = await untyped
        .selectFrom(table)
        .select(columns as string[])
        .where('user_id', '=', userIdAsText ? String(user.id) : user.id)
        .execute();
    }
    if (tables.has('oauth_refresh_tokens'))
      // A refresh token's id is the hash of the token: shown by the access token it belongs to.
      data.oauth_refresh_tokens = await db
        .selectFrom('oauth_refresh_tokens as r')
        .innerJoin('oauth_access_tokens as t', 't.id', 'r.access_token_id')
        .select(['r.access_token_id', 'r.revoked', 'r.created_at', 'r.expires_at'])
        .where('t.user_id', '=', user.id)
        .execute();
    if (this.deps.authorizedApps) data.authorized_applications = await this.deps.authorizedApps(user.id);
    if (this.deps.invoices) data.invoices = await this.deps.invoices(user);
    return data;
  }

  private tables(): Promise<Set<string>> {
    this.#tables ??= this.deps.db.introspection
      .getTables()
      .then((all) => new Set(all.map((t) => t.name)))
      .catch((err: unknown) => {
        this.#tables = undefined;
        throw err;
      });
    return this.#tables;
  }
}
