import { TestClock } from '../../src/core/clock.js';
import type { EditionHarness, EditionSandbox } from '../billing/harness.js';
import { type FaultProxy, startFaultProxy } from '../faults/fault-proxy.js';

/** The per-seat add-on the seat tests bill. */
export const SEAT = { id: 'seat', name: 'Seat', unitMinor: 2000 };

export interface ProxiedSeatSandbox {
  sandbox: EditionSandbox;
  proxy: FaultProxy;
  /** The plan whose subscriptions carry seats. */
  seatPlan: EditionHarness['plans']['monthly'];
  /** The app's `billing` config, reaching the provider through `proxy`. */
  billing: Record<string, unknown>;
}

/** An edition's sandbox with a seat plan and the seat add-on, reached through a fault proxy. */
export async function startProxiedSeatSandbox(harness: EditionHarness): Promise<ProxiedSeatSandbox> {
  const seatPlan = harness.plans.monthly;
  const plans = [seatPlan, harness.plans.other];
  const sandbox = await harness.startSandbox({
    clock: new TestClock(new Date('2026-01-15T12:00:00Z')),
    plans,
    coupons: [],
    currency: 'usd',
    metered: SEAT,
  });
  const provider = (sandbox.config as Record<string, { apiBase: string }>)[harness.edition]!;
  const proxy = await startFaultProxy(provider.apiBase);
  const billing = { ...sandbox.config, [harness.edition]: { ...provider, apiBase: proxy.url }, plans };
  return { sandbox, proxy, seatPlan, billing };
}
