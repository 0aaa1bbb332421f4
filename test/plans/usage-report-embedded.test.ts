import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { authProvider } from '../../src/auth/provider.js';
import { UserModelKey, Users } from '../../src/auth/users.js';
import {
  type BillingEdition,
  billingProvider,
  closeBilling,
  PaymentGatewayKey,
} from '../../src/billing/index.js';
import { UsageMeter } from '../../src/plans/metering/usage-meter.js';
import { plansProvider } from '../../src/plans/provider.js';
import { UsageReporter } from '../../src/plans/reporting/usage-reporter.js';
import { TestUser } from '../billing/contract/context.js';
import { createTestApp, type TestApp } from '../support/app.js';
import { acrossEngines } from '../support/engines.js';

const TOKENS: Record<BillingEdition, string> = { stripe: 'tok_visa', braintree: 'fake-valid-nonce' };

/** No provider credentials: the embedded sandbox offers the plans' metered prices by itself. */
describe.each(acrossEngines<{ edition: BillingEdition }>([{ edition: 'stripe' }, { edition: 'braintree' }]))(
  'metered prices on the embedded $edition sandbox ($engine)',
  ({ engine, edition }) => {
    let t: TestApp;

    beforeAll(async () => {
      t = await createTestApp({
        engine,
        config: {
          billing: {
            edition,
            currency: 'usd',
            plans: [
              {
                id: 'basic-monthly',
                name: 'Basic',
                amount: edition === 'stripe' ? 900 : '9.00',
                interval: 'month',
              },
            ],
          },
          plans: {
            definitions: {
              free: {},
              basic: {
                metered: { meter: 'emails', price: 'metered-emails', unitAmount: 5 },
                billingPlans: ['basic-monthly'],
              },
            },
          },
        },
        providers: [authProvider(), billingProvider(), plansProvider()],
        setup: (app) => void app.container.instance(UserModelKey, TestUser),
      });
    });

    afterAll(async () => {
      await closeBilling(t.app);
      await t.close();
    });

    it('bills the reported units at the configured unit amount on the next invoice', async () => {
      const user = await t.app.container
        .make(Users)
        .create<TestUser>({ name: 'Mailer', email: 'mailer@example.com', password: 'correct horse battery' });
      const sub = await user.newSubscription('default', 'basic-monthly').create(TOKENS[edition]);
      const meter = t.app.container.make(UsageMeter);
      meter.record(
        {
          day: t.clock.now().toISOString().slice(0, 10),
          userId: String(user.id),
          clientId: '',
          credentialKind: 'cookie',
          credentialId: '',
          route: 'mail.send',
          meter: 'emails',
        },
        12,
      );
      await meter.flush();
      const [line] = await t.app.container.make(UsageReporter).report();
      expect(line).toMatchObject({ userId: user.id, meter: 'emails', total: 12, status: 'reported' });

      const gateway = t.app.container.make(PaymentGatewayKey);
      const customer = (await t.app.container.make(Users).find<TestUser>(user.id))![
        gateway.capabilities.columns.customerId
      ]!;
      const upcoming = await gateway.upcomingInvoice(customer, sub.providerId);
      expect(upcoming?.lines.find((l) => l.quantity === 12)).toMatchObject({ amount: 60 });
    });
  },
);
