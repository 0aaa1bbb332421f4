import { expect } from 'vitest';
import { IncompletePayment } from '../../src/billing/index.js';

/** The `IncompletePayment` a call must throw (a payment waiting for the customer's 3-D Secure). */
export async function incomplete(promise: Promise<unknown>): Promise<IncompletePayment> {
  const err = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(IncompletePayment);
  return err as IncompletePayment;
}
