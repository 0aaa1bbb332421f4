import type { Kysely } from 'kysely';

/** One row per scheduled job per interval: the instance that inserts it runs that interval's job. */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('job_runs')
    .addColumn('job', 'varchar(64)', (c) => c.notNull())
    .addColumn('interval_start', 'varchar(32)', (c) => c.notNull())
    .addColumn('started_at', 'varchar(32)', (c) => c.notNull())
    .addColumn('finished_at', 'varchar(32)')
    .addColumn('failed', 'integer', (c) => c.notNull().defaultTo(0))
    .addPrimaryKeyConstraint('job_runs_primary', ['job', 'interval_start'])
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('job_runs').execute();
}
