import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { BenchOptions } from './options.js';
import type { Row } from './row.js';

const entry = new URL('../routing/run.ts', import.meta.url);

/** The shape `bench/routing/run.ts` returns (owned separately; kept loose on purpose). */
interface RoutingRow {
  variant: string;
  routes: number;
  unit?: string;
  tollgate: number;
  hono: number;
  ratio: number;
}

const label: Record<string, string> = {
  controller: 'Tollgate router, controller actions',
  closure: 'Tollgate router, closure actions',
};

/**
 * Routing with 10, 100 and 1,000 routes, from `runRoutingBench()` in `bench/routing/run.ts`:
 * in-process `fetch()` lookups against bare Hono with the same table, so no child process and
 * no peak RSS. Each size becomes a Hono row and one row per Tollgate variant, whose ratio is the
 * routing bench's own median of paired rounds (steadier than dividing two medians).
 */
export async function runRouting(options: BenchOptions, selected: (id: string) => boolean): Promise<Row[]> {
  if (!selected('routing')) return [];
  const pending = (reason: string): Row[] => [
    {
      id: 'routing',
      scenario: 'routing, 1,000 routes vs 10',
      group: 'routing',
      unit: 'lookups/s',
      pending: reason,
    },
  ];
  if (!existsSync(fileURLToPath(entry))) return pending('bench/routing/run.ts not written yet');
  try {
    const module = await import(entry.href);
    if (typeof module.runRoutingBench !== 'function')
      return pending('bench/routing/run.ts has no runRoutingBench()');
    const result = (await module.runRoutingBench(options.quick ? { rounds: 4 } : {})) as RoutingRow[];
    const rows: Row[] = [];
    for (const size of [...new Set(result.map((r) => r.routes))]) {
      const ofSize = result.filter((r) => r.routes === size);
      const unit = ofSize[0]?.unit ?? 'lookups/s';
      rows.push({
        id: `routing.hono.${size}`,
        scenario: `bare Hono router, ${size} routes, in-process fetch()`,
        group: 'routing',
        unit,
        opsPerSecond: ofSize[0]?.hono,
        cpuMsPerOp: ofSize[0]?.hono ? 1000 / ofSize[0].hono : undefined,
      });
      for (const r of ofSize) {
        rows.push({
          id: `routing.${r.variant}.${size}`,
          scenario: `${label[r.variant] ?? `Tollgate router, ${r.variant}`}, ${size} routes`,
          group: 'routing',
          unit,
          opsPerSecond: r.tollgate,
          // The routing bench already counts per CPU-second.
          cpuMsPerOp: r.tollgate ? 1000 / r.tollgate : undefined,
          baseline: `routing.hono.${size}`,
          ratio: r.ratio,
        });
      }
    }
    return rows;
  } catch (error) {
    return pending(`runRoutingBench() failed: ${String((error as Error)?.message ?? error).split('\n')[0]}`);
  }
}
