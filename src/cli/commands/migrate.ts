import type { Command } from 'commander';
import { Migrator } from 'kysely';
import { assertSucceeded, FolderMigrationProvider } from '../../database/migrator.js';
import { withApplication } from '../context.js';

export function register(program: Command): void {
  const migratorOf = (folders: string[], db: ConstructorParameters<typeof Migrator>[0]['db']) =>
    new Migrator({ db, provider: new FolderMigrationProvider(folders) });

  program
    .command('migrate')
    .description('Run the pending database migrations.')
    .action(() =>
      withApplication(async (app) => {
        const result = await migratorOf(app.migrationFolders, app.db).migrateToLatest();
        for (const r of result.results ?? [])
          console.log(`${r.status === 'Success' ? 'Migrated' : r.status}: ${r.migrationName}`);
        assertSucceeded(result);
        if (!result.results?.length) console.log('Nothing to migrate.');
      }),
    );

  program
    .command('migrate:status')
    .description('List every migration and whether it has run.')
    .action(() =>
      withApplication(async (app) => {
        for (const m of await migratorOf(app.migrationFolders, app.db).getMigrations()) {
          console.log(`${m.executedAt ? 'Ran    ' : 'Pending'}  ${m.name}`);
        }
      }),
    );

  program
    .command('migrate:rollback')
    .description('Roll back the last migration (or --step N of them).')
    .option('--step <n>', 'how many migrations to roll back', '1')
    .action((options: { step: string }) =>
      withApplication(async (app) => {
        const steps = Number(options.step);
        if (!Number.isInteger(steps) || steps < 1)
          throw new Error('--step must be a whole number of at least 1.');
        const migrator = migratorOf(app.migrationFolders, app.db);
        for (let i = 0; i < steps; i++) {
          const result = await migrator.migrateDown();
          assertSucceeded(result);
          if (!result.results?.length) {
            console.log('Nothing to roll back.');
            break;
          }
          for (const r of result.results) console.log(`Rolled back: ${r.migrationName}`);
        }
      }),
    );
}
