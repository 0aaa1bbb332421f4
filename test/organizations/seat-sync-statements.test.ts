import { InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { authProvider } from '../../src/auth/provider.js';
import { Users } from '../../src/auth/users.js';
import { billingProvider } from '../../src/billing/index.js';
import { mailProvider } from '../../src/mail/provider.js';
import { startTracing, stopTracing } from '../../src/observability/tracing.js';
import { Organizations } from '../../src/organizations/organizations.js';
import { organizationsProvider } from '../../src/organizations/provider.js';
import { createTestApp, type TestApp } from '../support/app.js';
import { ENGINES } from '../support/engines.js';

// The statements a join ran, as the database spans record them (tracing on, spans in memory).
const exporter = new InMemorySpanExporter();
beforeAll(() => startTracing({ spanProcessors: [new SimpleSpanProcessor(exporter)] }));
afterAll(() => stopTracing());

describe.each(ENGINES)('seat sync of an organization without a seat subscription (%s)', (engine) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({
      engine,
      providers: [
        authProvider(),
        mailProvider(),
        billingProvider(),
        organizationsProvider({ seats: { plans: ['team-monthly'], addOn: 'seat' } }),
      ],
    });
  });
  afterAll(() => t?.close());

  it('a join reads the subscriptions and touches no pending seat sync', async () => {
    const users = t.app.container.make(Users);
    const [owner, joiner] = await Promise.all(
      ['owner', 'joiner'].map((name) =>
        users.create({ name, email: `${name}@example.com`, password: 'correct horse battery' }),
      ),
    );
    const organizations = t.app.container.make(Organizations);
    const org = await organizations.create(owner!.id, 'Acme');

    exporter.reset();
    await organizations.addMember(org.id, joiner!.id, 'member', owner!.id);
    const statements = exporter
      .getFinishedSpans()
      .map((span) => String(span.attributes['db.query.text'] ?? ''));
    expect(statements.some((text) => text.includes('"subscriptions"'))).toBe(true);
    expect(statements.filter((text) => text.includes('organization_seat_syncs'))).toEqual([]);
  });
});
