import type { Kysely } from 'kysely';

/** Domain-restricted auto-join (docs/organizations.md#joining-by-e-mail-domain): the domain, lower case, or null. */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('organizations').addColumn('auto_join_domain', 'varchar(255)').execute();
  await db.schema
    .createIndex('organizations_auto_join_domain_index')
    .on('organizations')
    .column('auto_join_domain')
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('organizations_auto_join_domain_index').execute();
  await db.schema.alterTable('organizations').dropColumn('auto_join_domain').execute();
}
