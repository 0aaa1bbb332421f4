import { PaymentGatewayKey } from '../billing/gateway/payment-gateway.js';
import { SubscriptionChanged } from '../billing/subscriptions/subscription-changed.js';
import { SubscriptionRepository } from '../billing/subscriptions/subscription-repository.js';
import type { Application, ServiceProvider } from '../kernel/application.js';
import { OAuthHooks } from '../oauth/index.js';
import { RateLimits } from '../rate-limits/rate-limits.js';
import { CredentialKinds } from './metering/credential-kinds.js';
import { meteredMiddleware, useMetering } from './metering/metered.js';
import { Metering } from './metering/metering.js';
import { UsageLedger } from './metering/usage-ledger.js';
import { UsageMeter } from './metering/usage-meter.js';
import { KyselyUsageWriter } from './metering/usage-writer.js';
import { plansMigrations } from './migrations.js';
import { type PlanCatalog, planCatalog } from './plan.js';
import { PlanBroadcast } from './plan-broadcast.js';
import { PlanEnforcement } from './plan-enforcement.js';
import { planHolderOf } from './plan-holder.js';
import { requireFeature, requirePlan } from './plan-middleware.js';
import { PlanResolver } from './plan-resolver.js';
import { issuableScopes } from './plan-scopes.js';
import { registerUsageReporter } from './reporting/register.js';

/** The parsed `config.plans`, bound in the container by `plansProvider()`. */
export class Plans {
  constructor(readonly catalog: PlanCatalog) {}
  get enabled(): boolean {
    return this.catalog.plans.size > 0;
  }
}

/**
 * Plans and their entitlements (`config.plans`): the `plan:a,b` and `entitled:feature`
 * middleware, and — once plans are declared — the plan's scopes and rate limit applied by
 * `auth:api`. Register it after `oauthProvider()` and `billingProvider()`: it reads each user's
 * (and each organization's) subscription through billing and forgets a plan when billing reports
 * a change.
 */
export function plansProvider(): ServiceProvider {
  return {
    name: 'plans',
    migrations: [plansMigrations],
    register(app) {
      const { container, config, router } = app;
      registerMetering(app);
      const plans = new Plans(planCatalog(config.plans));
      container.instance(Plans, plans);
      container.singleton(PlanResolver, (c) => {
        const repository = c.has(PaymentGatewayKey) ? c.make(SubscriptionRepository) : undefined;
        return new PlanResolver({
          catalog: plans.catalog,
          config: config.plans,
          clock: app.clock,
          subscription: async (holder, name) => repository?.findByName(holder, name),
        });
      });
      registerUsageReporter(app, plans.catalog);
      const resolver = () => container.make(PlanResolver);
      router.middleware
        .alias('plan', (...names) => requirePlan(names, plans.catalog, resolver()))
        .alias('entitled', (...features) => requireFeature(features, plans.catalog, resolver()));
      app.events.listen(SubscriptionChanged, ({ owner }) => {
        resolver().forget(owner.id, owner.type);
        if (container.has(PlanBroadcast)) container.make(PlanBroadcast).publish(owner.id, owner.type);
      });
      // At issuance (also from the CLI, which does not boot): the token endpoint drops what the
      // plan does not allow; personal tokens and API keys refuse it (422).
      if (plans.enabled)
        OAuthHooks.of(app).issuancePolicies.push(async (userId, names, organizationId) => {
          const { type, id } = planHolderOf({ organizationId: organizationId ?? null }, userId);
          return issuableScopes(names, (await resolver().standing(id, type)).plan);
        });
    },
    async boot(app: Application) {
      const plans = app.container.make(Plans);
      if (!plans.enabled) return;
      await startBroadcast(app);
      const enforcement = new PlanEnforcement(
        app.container.make(PlanResolver),
        plans.catalog,
        app.container.make(RateLimits),
        app.clock,
        app.container.make(Metering),
      );
      app.container.instance(PlanEnforcement, enforcement);
      OAuthHooks.of(app).guardSteps.push(enforcement.step);
    },
  };
}

/** The usage meter (flushed on close) and the ledger that reads what it wrote. */
function registerMetering(app: Application): void {
  const meter = new UsageMeter(
    new KyselyUsageWriter(app.db),
    app.clock,
    app.logger,
    app.config.plans.metering.flushMs,
  );
  const metering = new Metering(meter, new CredentialKinds(app.db), app.clock);
  app.container
    .instance(UsageMeter, meter)
    .instance(Metering, metering)
    .instance(UsageLedger, new UsageLedger(app.db));
  useMetering(app.router, metering);
  app.router.middleware.alias('metered', (...args) => meteredMiddleware(args));
  app.onClose(() => meter.flush());
}

/** With Redis, plan changes reach every instance at once; a Redis that does not answer is logged. */
async function startBroadcast(app: Application): Promise<void> {
  const url = app.config.redis.url;
  if (!url) return;
  const resolver = app.container.make(PlanResolver);
  const broadcast = new PlanBroadcast(
    url,
    `${app.config.redis.keyPrefix}plans:changes`,
    resolver,
    app.logger,
  );
  app.container.instance(PlanBroadcast, broadcast);
  app.onClose(() => broadcast.close());
  try {
    await broadcast.start();
  } catch (err) {
    app.logger.error(
      { err: (err as Error).message },
      'Redis is not reachable: plan changes reach other instances after plans.cacheMs',
    );
  }
}
