import { setTimeout as sleep } from 'node:timers/promises';
import type { PaymentGateway } from '../../src/billing/index.js';

type Method = {
  [K in keyof PaymentGateway]-?: PaymentGateway[K] extends (...args: never[]) => Promise<unknown> ? K : never;
}[keyof PaymentGateway];

/**
 * `gateway` with `method` pausing after the provider answered, so a test can run another writer
 * between a read of the provider's state and the write of it. The pause ends at `resume()`, or
 * after `ms` when the other writer waits for this one (then it must not end the test in a deadlock).
 */
export function pausedAfterAnswer(gateway: PaymentGateway, method: Method, ms = 300) {
  let answer!: () => void;
  const answered = new Promise<void>((resolve) => {
    answer = resolve;
  });
  let resume!: () => void;
  const resumed = new Promise<void>((resolve) => {
    resume = resolve;
  });
  const real = gateway[method] as (...args: unknown[]) => Promise<unknown>;
  const paused = async (...args: unknown[]) => {
    const result = await real.apply(gateway, args);
    answer();
    await Promise.race([resumed, sleep(ms)]);
    return result;
  };
  // A proxy, not a prototype: the gateways keep private fields that only the instance has.
  const proxy = new Proxy(gateway, {
    get: (target, key) => {
      if (key === method) return paused;
      const value = Reflect.get(target, key);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
  return { gateway: proxy, answered, resume };
}
