import { describe, expect, it } from 'vitest';
import type { SubscriptionRecord } from '../billing/subscriptions/record.js';
import { TestClock } from '../core/clock.js';
import { planCatalog } from './plan.js';
import { PlanResolver } from './plan-resolver.js';

const config = { subscription: 'default', pastDueGraceDays: 7, cacheMs: 0 };
const catalog = planCatalog({
  ...config,
  free: 'free',
  definitions: { free: {}, pro: { billingPlans: ['pro-monthly'] } },
});

const subscription = (plan: string): SubscriptionRecord => ({
  id: 1,
  billableType: 'user',
  billableId: 1,
  userId: 1,
  name: 'default',
  providerId: 'sub_1',
  plan,
  quantity: 1,
  trialEndsAt: null,
  endsAt: null,
  status: 'active',
  providerUpdatedAt: null,
  createdAt: '2026-01-01T00:00:00Z',
  updatedAt: '2026-01-01T00:00:00Z',
});

/** A resolver whose subscription reads wait until `settle` answers them with `plan`. */
function resolver(cacheMs = 0) {
  const reads: ((record: SubscriptionRecord | undefined) => void)[] = [];
  const plans = new PlanResolver({
    catalog,
    config: { ...config, cacheMs },
    clock: new TestClock(),
    subscription: () => new Promise((resolve) => reads.push(resolve)),
  });
  const settle = async (plan: string | undefined) => {
    for (const read of reads.splice(0)) read(plan === undefined ? undefined : subscription(plan));
    await new Promise((resolve) => setImmediate(resolve));
  };
  return { plans, reads, settle };
}

describe('plan resolver', () => {
  it("one user's concurrent lookups share one read of their subscription", async () => {
    const { plans, reads, settle } = resolver();
    const lookups = Array.from({ length: 10 }, () => plans.standing(1));
    expect(reads).toHaveLength(1);
    await settle('pro-monthly');
    const standings = await Promise.all(lookups);
    expect(new Set(standings).size).toBe(1);
    expect(standings[0]!.plan.name).toBe('pro');
  });

  it('a lookup that finds what was remembered answers with the same standing; a change, with a new one', async () => {
    const { plans, settle } = resolver();
    const first = plans.standing(1);
    await settle('pro-monthly');
    const again = plans.standing(1);
    await settle('pro-monthly');
    expect(await again).toBe(await first);
    const changed = plans.standing(1);
    await settle(undefined);
    expect((await changed).plan.name).toBe('free');
  });

  it('a lookup started before `forget` is not joined by the lookups after it', async () => {
    const { plans, reads, settle } = resolver(60_000);
    const before = plans.standing(1);
    plans.forget(1);
    const after = plans.standing(1);
    expect(reads).toHaveLength(2);
    reads[0]!(undefined);
    reads[1]!(subscription('pro-monthly'));
    await settle(undefined);
    expect([(await before).plan.name, (await after).plan.name]).toEqual(['free', 'pro']);
    expect(plans.cached(1)?.plan.name).toBe('pro');
  });
});

describe('plan resolver, per holder', () => {
  it("an organization's standing is its own: the user with the same id keeps theirs, and forgetting one keeps the other", async () => {
    const read: string[] = [];
    const plans = new PlanResolver({
      catalog,
      config: { ...config, cacheMs: 60_000 },
      clock: new TestClock(),
      subscription: async (holder) => {
        read.push(`${holder.type}:${holder.id}`);
        return holder.type === 'organization' ? subscription('pro-monthly') : undefined;
      },
    });
    expect((await plans.standing(1)).plan.name).toBe('free');
    expect((await plans.standing(1, 'organization')).plan.name).toBe('pro');
    plans.forget(1, 'organization');
    expect(plans.cached(1)?.plan.name).toBe('free');
    expect(plans.cached(1, 'organization')).toBeUndefined();
    expect(read).toEqual(['user:1', 'organization:1']);
  });
});
