import type { CompiledQuery, Kysely, QueryResult } from 'kysely';

/**
 * A query compiled once per SQL dialect and run with new parameters: the token endpoint and the
 * guard's revocation lookup are hot paths, and building + compiling a Kysely query each time
 * costs more than SQLite's primary-key lookup itself. The SQL is the same on a transaction, so one
 * compiled query serves a connection and every transaction on it.
 */
export class Precompiled<Row> {
  readonly #byDialect = new Map<unknown, CompiledQuery<Row>>();

  constructor(private readonly build: (db: Kysely<any>) => { compile(): CompiledQuery<Row> }) {}

  async execute(db: Kysely<any>, parameters: readonly unknown[]): Promise<Row[]> {
    return (await this.run(db, parameters)).rows;
  }

  /** The whole result: an update's `numAffectedRows` too. */
  run(db: Kysely<any>, parameters: readonly unknown[]): Promise<QueryResult<Row>> {
    const dialect = db.getExecutor().adapter.constructor;
    let compiled = this.#byDialect.get(dialect);
    if (!compiled) {
      compiled = this.build(db).compile();
      this.#byDialect.set(dialect, compiled);
    }
    return db.executeQuery<Row>({ ...compiled, parameters });
  }
}
