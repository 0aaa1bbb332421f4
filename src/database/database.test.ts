import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../../test/support/database.js';
import { ENGINES } from '../../test/support/engines.js';
import { authMigrations, usersTableMigrations } from '../auth/migrations.js';
import { billingMigrations } from '../billing/migrations.js';
import { oauthMigrations } from '../oauth/migrations.js';
import { connect } from './connection.js';
import { createMigrator, migrateToLatest } from './migrator.js';

const folders = [usersTableMigrations, authMigrations, oauthMigrations, billingMigrations];

describe.each(ENGINES)('database (%s)', (engine) => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await createTestDatabase(engine);
  });
  afterAll(async () => database.drop());

  it('runs every migration up, reports status, and rolls back', async () => {
    const { db, engine, close } = connect(database.url);
    expect(engine).toBe(database.engine);
    const result = await migrateToLatest(db, folders);
    expect(result.results?.map((r) => r.status).every((s) => s === 'Success')).toBe(true);
    const status = await createMigrator(db, folders).getMigrations();
    expect(status.every((m) => m.executedAt !== undefined)).toBe(true);

    const now = new Date().toISOString();
    const user = await db
      .insertInto('users')
      .values({
        name: 'Ada',
        email: 'ada@example.com',
        password: 'x',
        stripe_id: null,
        braintree_id: null,
        paypal_email: null,
        card_brand: null,
        card_last_four: null,
        trial_ends_at: null,
        created_at: now,
        updated_at: now,
      })
      .returningAll()
      .executeTakeFirstOrThrow();
    expect(user.id).toBeTypeOf('number');
    await expect(
      db
        .insertInto('users')
        .values({ ...user, id: undefined, name: 'Copy' } as never)
        .execute(),
    ).rejects.toThrow();

    const down = await createMigrator(db, folders).migrateDown();
    expect(down.error).toBeUndefined();
    await close();
  });
});
