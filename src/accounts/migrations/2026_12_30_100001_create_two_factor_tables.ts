import type { Kysely } from 'kysely';
import { userIdColumn, withIncrements } from '../../database/schema.js';

/**
 * A user's authenticator app (the TOTP seed, sealed with the application key) and recovery codes
 * (SHA-256 of each, one row per code so that using one is a single-row update).
 */
export async function up(db: Kysely<any>): Promise<void> {
  const userId = await userIdColumn(db);
  await db.schema
    .createTable('account_two_factor')
    .addColumn('user_id', 'integer', (c) => userId(c.primaryKey()))
    .addColumn('sealed_secret', 'text', (c) => c.notNull())
    .addColumn('confirmed_at', 'varchar(32)')
    .addColumn('last_used_step', 'bigint')
    .addColumn('failed_attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('locked_until', 'varchar(32)')
    .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
    .execute();
  await withIncrements(db, db.schema.createTable('account_recovery_codes'))
    .addColumn('user_id', 'integer', (c) => userId(c.notNull()))
    .addColumn('code_hash', 'varchar(64)', (c) => c.notNull())
    .addColumn('used_at', 'varchar(32)')
    .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
    .addUniqueConstraint('account_recovery_codes_user_hash_unique', ['user_id', 'code_hash'])
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('account_recovery_codes').execute();
  await db.schema.dropTable('account_two_factor').execute();
}
