import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../../test/support/database.js';
import { ENGINES } from '../../test/support/engines.js';
import { authMigrations, usersTableMigrations } from '../auth/migrations.js';
import { connect } from '../database/connection.js';
import { createMigrator } from '../database/migrator.js';
import { oauthMigrations } from '../oauth/migrations.js';
import { billingMigrations } from './migrations.js';

const folders = [usersTableMigrations, authMigrations, oauthMigrations, billingMigrations];
const BEFORE = '2026_11_25_120001_no_double_charge';
const STATUS = '2026_11_25_130001_add_status_to_subscriptions';

describe.each(ENGINES)('the status migration backfills existing subscriptions (%s)', (engine) => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await createTestDatabase(engine);
  });
  afterAll(async () => database.drop());

  it('ended → canceled, in trial → trialing, otherwise (grace period too) → active', async () => {
    const { db, close } = connect(database.url);
    try {
      const migrator = createMigrator(db, folders);
      expect((await migrator.migrateTo(BEFORE)).error).toBeUndefined();
      const iso = (days: number) => new Date(Date.now() + days * 86_400_000).toISOString();
      const now = iso(0);
      const user = await db
        .insertInto('users')
        .values({
          name: 'Ada',
          email: 'ada@example.com',
          password: 'x',
          created_at: now,
          updated_at: now,
        } as never)
        .returning('id')
        .executeTakeFirstOrThrow();
      const row = (name: string, trial: string | null, ends: string | null) => ({
        user_id: user.id,
        name,
        stripe_id: `sub_${name}`,
        stripe_plan: 'basic',
        trial_ends_at: trial,
        ends_at: ends,
        created_at: now,
        updated_at: now,
      });
      await db
        .insertInto('subscriptions')
        .values([
          row('ended', null, iso(-1)),
          row('trial', iso(3), null),
          row('grace', null, iso(3)),
          row('paying', iso(-10), null),
        ] as never)
        .execute();

      expect((await migrator.migrateTo(STATUS)).error).toBeUndefined();
      const rows = await db
        .selectFrom('subscriptions')
        .select(['name', 'status', 'provider_updated_at'])
        .execute();
      const byName = Object.fromEntries(rows.map((r) => [r.name, r.status]));
      expect(byName).toEqual({ ended: 'canceled', trial: 'trialing', grace: 'active', paying: 'active' });
      expect(rows.every((r) => r.provider_updated_at === null)).toBe(true);
    } finally {
      await close();
    }
  });
});
