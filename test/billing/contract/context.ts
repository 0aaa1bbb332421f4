import { expect } from 'vitest';
import { User } from '../../../src/auth/user.js';
import { Billable, BillingError, type SubscriptionRow } from '../../../src/billing/index.js';
import type { TestClock } from '../../../src/core/clock.js';
import type { TestApp } from '../../support/app.js';
import type { EditionHarness, EditionSandbox } from '../harness.js';

export const DAY_MS = 86_400_000;

/** The suite's user model: its tax percentage is whatever the running test set. */
export class TestUser extends Billable(User) {
  static tax = 0;
  override taxPercentage(): number {
    return TestUser.tax;
  }
}

/** What every part of the contract suite shares; `sandbox`, `t` and `serverUrl` exist once `beforeAll` ran. */
export interface ContractContext {
  readonly harness: EditionHarness;
  readonly clock: TestClock;
  readonly sandbox: EditionSandbox;
  readonly t: TestApp;
  readonly serverUrl: string;
  /** Runs of the "paid" webhook handler (event ids); `failNext` makes the next run throw. */
  readonly webhooks: { handled: string[]; failNext: boolean };
  setTax(percentage: number): void;
  newUser(attributes?: { trial_ends_at?: string }): Promise<TestUser>;
  reload(user: TestUser): Promise<TestUser>;
  customerId(user: TestUser): string;
  localRows(user: TestUser): Promise<SubscriptionRow[]>;
  expectBillingError(promise: Promise<unknown>, code: BillingError['code']): Promise<BillingError>;
  /** Amounts (minor units) the provider collected from the user, oldest first. */
  paidAmounts(user: TestUser): Promise<number[]>;
}

export async function expectBillingError(
  promise: Promise<unknown>,
  code: BillingError['code'],
): Promise<BillingError> {
  const err = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(BillingError);
  expect((err as BillingError).code).toBe(code);
  return err as BillingError;
}
