import type { Context, MiddlewareHandler } from 'hono';
import { ConfigurationError } from '../core/errors.js';
import type { PlanCatalog } from './plan.js';
import { notEntitled, paymentRequired, planRequired } from './plan-errors.js';
import { planHolderOf } from './plan-holder.js';
import type { PlanResolver, PlanStanding } from './plan-resolver.js';

function standingOf(c: Context, resolver: PlanResolver): PlanStanding | Promise<PlanStanding> {
  const user = c.get('user');
  // After `auth`: a route without it is a wiring mistake, reported in the logs (500 to the client).
  if (user === undefined) throw new ConfigurationError('The plan middleware runs after "auth".');
  // A credential acting for an organization has the organization's plan.
  const { type, id } = planHolderOf(c.get('accessToken'), Number(user.id));
  return resolver.cached(id, type) ?? resolver.standing(id, type);
}

/**
 * `plan:pro,team` — the user (or the organization the credential acts for) is subscribed to one of the plans (a past-due subscription within
 * its grace still counts). 402 when their subscription to one of them is past due beyond the
 * grace, else 403 `plan_required`. Runs after `auth`.
 */
export function requirePlan(
  names: readonly string[],
  catalog: PlanCatalog,
  resolver: PlanResolver,
): MiddlewareHandler {
  if (names.length === 0) throw new ConfigurationError('The "plan" middleware needs plans: "plan:pro,team".');
  for (const name of names)
    if (!catalog.plans.has(name))
      throw new ConfigurationError(
        `"plan:${names.join(',')}" names the plan "${name}", which is not declared.`,
      );
  const wanted = new Set(names);
  return async function requirePlan(c, next) {
    const standing = await standingOf(c, resolver);
    if (!wanted.has(standing.plan.name)) {
      if (standing.lapsedFrom && wanted.has(standing.lapsedFrom.name)) throw paymentRequired(names);
      throw planRequired(standing, names);
    }
    return next();
  };
}

/** `entitled:feature` — the user's plan lists the feature (`features`). 403 `not_entitled`. */
export function requireFeature(
  features: readonly string[],
  catalog: PlanCatalog,
  resolver: PlanResolver,
): MiddlewareHandler {
  if (features.length !== 1)
    throw new ConfigurationError('The "entitled" middleware names one feature: "entitled:exports".');
  if (catalog.free === undefined)
    throw new ConfigurationError(`"entitled:${features[0]}" needs plans: declare them in plans.definitions.`);
  const feature = features[0]!;
  return async function requireFeature(c, next) {
    const standing = await standingOf(c, resolver);
    if (!standing.plan.features.has(feature)) throw notEntitled(standing, feature);
    return next();
  };
}
