import { executionAsyncResource } from 'node:async_hooks';

let held: object | undefined;

/**
 * Keeps one of Node's `process.nextTick` objects alive for the life of the process. V8 keeps the
 * shapes (maps) of those objects only while one of them lives, and `nextTick`'s caches for the
 * object's properties refer to them weakly: a full GC at a moment when no tick is queued drops
 * them, the next tick builds new ones, and the caches, having seen a second shape, turn
 * megamorphic for good. Every later `nextTick` (several a request in Node's HTTP streams) then
 * defines its object through the V8 runtime, about twice its cost. A PostgreSQL pool's ticks at
 * start-up record those caches before the first full GC; SQLite's few did not (docs/benchmarks.md,
 * "Why the same route costs more next to PostgreSQL").
 */
export function holdTickObjectShape(): void {
  if (held) return;
  held = {};
  process.nextTick(() => {
    held = executionAsyncResource();
  });
}
