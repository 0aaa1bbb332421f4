import { describe, expect, it } from 'vitest';
import type { ContractContext } from './context.js';

/** The `status` column: what the provider answered to each operation, stored as it said. */
export function statusCases(ctx: ContractContext): void {
  const { newUser, localRows } = ctx;
  const { plans, tokens } = ctx.harness;
  describe("the provider's status", () => {
    it('create() stores active, or trialing with a trial; cancelNow() stores canceled', async () => {
      const paying = await newUser();
      const sub = await paying.newSubscription('main', plans.monthly.id).create(tokens.card);
      expect(sub.status).toBe('active');
      expect((await localRows(paying))[0]!.status).toBe('active');
      await sub.cancelNow();
      expect((await localRows(paying))[0]!.status).toBe('canceled');

      const trying = await newUser();
      const trial = await trying.newSubscription('main', plans.monthly.id).trialDays(5).create(tokens.card);
      expect(trial.status).toBe('trialing');
      expect((await localRows(trying))[0]!.status).toBe('trialing');
    });

    it('cancel() at period end and resume() keep the status active', async () => {
      const user = await newUser();
      const sub = await user.newSubscription('main', plans.monthly.id).create(tokens.card);
      await sub.cancel();
      expect(sub.status).toBe('active');
      await sub.resume();
      expect(sub.status).toBe('active');
      expect((await localRows(user))[0]!.status).toBe('active');
    });
  });
}
