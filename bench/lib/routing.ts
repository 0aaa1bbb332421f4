import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { BenchOptions } from './options.js';
import type { Row } from './row.js';

const entry = new URL('../routing/run.ts', import.meta.url);

/**
 * Routing with 10 vs 1,000 routes is measured by `bench/routing/run.ts` (`runRoutingBench()`,
 * owned separately). Its rows are taken as they come when they already have this table's shape;
 * anything else it returns is summarised into a row so the run never fails on it.
 */
export async function runRouting(options: BenchOptions, selected: (id: string) => boolean): Promise<Row[]> {
  if (!selected('routing')) return [];
  const pending = (reason: string): Row[] => [
    {
      id: 'routing',
      scenario: 'routing, 1,000 routes vs 10',
      group: 'routing',
      unit: 'req/s',
      pending: reason,
    },
  ];
  if (!existsSync(fileURLToPath(entry))) return pending('bench/routing/run.ts not written yet');
  try {
    const module = await import(entry.href);
    if (typeof module.runRoutingBench !== 'function')
      return pending('bench/routing/run.ts has no runRoutingBench()');
    const result = await module.runRoutingBench(options);
    const list: unknown[] = Array.isArray(result) ? result : Array.isArray(result?.rows) ? result.rows : [];
    return list.map(
      (item: any, i): Row => ({
        id: String(item.id ?? `routing.${i}`),
        scenario: String(item.scenario ?? item.name ?? item.id ?? `routing ${i}`),
        group: 'routing',
        unit: String(item.unit ?? 'req/s'),
        opsPerSecond: item.opsPerSecond ?? item.requestsPerSecond ?? item.rps,
        p50Ms: item.p50Ms ?? item.p50,
        p99Ms: item.p99Ms ?? item.p99,
        peakRssBytes: item.peakRssBytes,
        baseline: item.baseline,
        failures: item.failures,
        note: item.note,
      }),
    );
  } catch (error) {
    return pending(`runRoutingBench() failed: ${String((error as Error)?.message ?? error).split('\n')[0]}`);
  }
}
