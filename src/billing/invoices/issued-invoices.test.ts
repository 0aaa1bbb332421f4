import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../../../test/support/database.js';
import { ENGINES } from '../../../test/support/engines.js';
import { authMigrations, usersTableMigrations } from '../../auth/migrations.js';
import { connect } from '../../database/connection.js';
import { createMigrator } from '../../database/migrator.js';
import { oauthMigrations } from '../../oauth/migrations.js';
import { billingMigrations } from '../migrations.js';
import { type IssuedInvoice, IssuedInvoices } from './issued-invoices.js';

const invoice = (providerId: string, overrides: Partial<IssuedInvoice> = {}): IssuedInvoice => ({
  providerId,
  customerId: 'cus_1',
  subscriptionId: 'sub_1',
  plan: 'basic',
  planName: 'Basic',
  currency: 'jpy',
  taxPercentage: 8.25,
  subtotal: 1000,
  discount: 0,
  discountDescription: null,
  tax: 83,
  total: 1083,
  issuedAt: new Date('2026-03-02T12:00:00Z'),
  ...overrides,
});

describe.each(ENGINES)('issued invoices are written once and never changed (%s)', (engine) => {
  let database: TestDatabase;
  let connection: ReturnType<typeof connect>;
  let store: IssuedInvoices;

  beforeAll(async () => {
    database = await createTestDatabase(engine);
    connection = connect(database.url);
    const migrator = createMigrator(connection.db, [
      usersTableMigrations,
      authMigrations,
      oauthMigrations,
      billingMigrations,
    ]);
    expect((await migrator.migrateToLatest()).error).toBeUndefined();
    store = new IssuedInvoices(connection.db, 'braintree');
  });
  afterAll(async () => {
    await connection?.close();
    await database?.drop();
  });

  it('five concurrent records of one charge (a webhook and its redeliveries) leave one row, never rewritten', async () => {
    await Promise.all([0, 1, 2, 3, 4].map((n) => store.record(invoice('t_race', { total: 1083 + n }))));
    const rows = await connection.db
      .selectFrom('billing_issued_invoices')
      .selectAll()
      .where('provider_id', '=', 't_race')
      .execute();
    expect(rows).toHaveLength(1);
    const first = (await store.find(['t_race'])).get('t_race');
    await store.record(invoice('t_race', { taxPercentage: 10, total: 1100, plan: 'team' }));
    expect((await store.find(['t_race'])).get('t_race')).toEqual(first);
    expect(first).toMatchObject({ plan: 'basic', taxPercentage: 8.25 });
  });

  it('rates come back exactly (8.25, not 8.2500001) and terms are replaced, not added', async () => {
    await store.record(invoice('t_rate', { taxPercentage: 8.25 }));
    expect((await store.find(['t_rate', 'unknown'])).get('t_rate')?.taxPercentage).toBe(8.25);
    const at = new Date('2026-03-02T12:00:00Z');
    await store.saveTerms({ subscriptionId: 'sub_t', plan: 'basic', price: 1083, taxPercentage: 8.25 }, at);
    await store.saveTerms({ subscriptionId: 'sub_t', plan: 'team', price: 4400, taxPercentage: 10 }, at);
    expect(await store.terms('sub_t')).toEqual({
      subscriptionId: 'sub_t',
      plan: 'team',
      price: 4400,
      taxPercentage: 10,
    });
    expect(await store.terms('nope')).toBeUndefined();
  });
});
