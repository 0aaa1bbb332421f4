import { HttpError } from '../core/errors.js';
import type { PlanStanding } from './plan-resolver.js';

/** 403: the user's plan is not one the route asks for (`plan:pro,team`). */
export function planRequired(standing: PlanStanding, plans: readonly string[]): HttpError {
  const message = `This requires one of the plans: ${plans.join(', ')}.`;
  return new HttpError(403, message, {
    body: { message, error: 'plan_required', plan: standing.plan.name, required: [...plans] },
  });
}

/** 403: the user's plan does not include the feature (`entitled:feature`). */
export function notEntitled(standing: PlanStanding, feature: string): HttpError {
  const message = `Your plan (${standing.plan.name}) does not include "${feature}".`;
  return new HttpError(403, message, {
    body: { message, error: 'not_entitled', plan: standing.plan.name, feature },
  });
}

/** 402: the subscription is past due beyond the grace; paying the open invoice restores it. */
export function paymentRequired(required: readonly string[]): HttpError {
  const message = 'Your subscription is past due. Update your payment method to continue.';
  return new HttpError(402, message, {
    body: { message, error: 'payment_required', required: [...required] },
  });
}
