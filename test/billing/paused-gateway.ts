import { setTimeout as sleep } from 'node:timers/promises';
import { type PaymentGateway, PaymentGatewayKey } from '../../src/billing/index.js';
import type { Constructor, Container } from '../../src/core/container.js';

type Method = {
  [K in keyof PaymentGateway]-?: PaymentGateway[K] extends (...args: never[]) => Promise<unknown> ? K : never;
}[keyof PaymentGateway];

/**
 * The container's gateway with `method` pausing after the provider answered, so a test can run
 * another writer between a service's read of the provider's state and its write of it. `construct`
 * builds a service on the paused gateway (everything else from the container). The pause ends at
 * `resume()`, or after `ms` when the other writer waits for this one (a lock, not a deadlock).
 */
export function pausedAfterAnswer(container: Container, method: Method, ms = 300) {
  const gateway = container.make(PaymentGatewayKey);
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
  const child = container.child().instance(PaymentGatewayKey, proxy);
  return {
    /** The gateway as it is, for the other writer. */
    gateway,
    construct: <T>(service: Constructor<T>): T => child.construct(service),
    answered,
    resume,
  };
}
