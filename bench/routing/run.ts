/**
 * Routing benchmark: lookups per second through Tollgate's router (resource routes, controller
 * actions, and the same table with closures) against bare Hono with the same route table, in the
 * same process and run, at 10, 100 and 1,000 registered routes. In-process `fetch(new Request())`
 * calls, no network: this measures routing and dispatch, not the HTTP stack.
 *
 *   npx tsx bench/routing/run.ts
 */
import { pathToFileURL } from 'node:url';
import { Hono } from 'hono';
import { Container, createLogger } from 'tollgate';
import { Router, toHonoPath } from 'tollgate/http';
import { median } from '../lib/median.js';

export interface Row {
  bench: 'routing';
  /** `controller` (resource → class actions) or `closure` (same table, closure actions). */
  variant: string;
  routes: number;
  unit: 'lookups/cpu-s';
  tollgate: number;
  hono: number;
  /** tollgate / hono. */
  ratio: number;
}

type Fetch = (request: Request) => Response | Promise<Response>;

class BenchController {
  index() {
    return { action: 'index' };
  }
  create() {
    return { action: 'create' };
  }
  store() {
    return { action: 'store' };
  }
  show(id: string) {
    return { action: 'show', id };
  }
  edit(id: string) {
    return { action: 'edit', id };
  }
  update(id: string) {
    return { action: 'update', id };
  }
  destroy(id: string) {
    return { action: 'destroy', id };
  }
}

/** `n` routes made of resources (7 routes each), the last one trimmed with `only`. */
function declare(router: Router, n: number): void {
  const all = ['index', 'create', 'store', 'show', 'edit', 'update', 'destroy'] as const;
  for (let i = 0; i * 7 < n; i++) {
    const only = all.slice(0, Math.min(7, n - i * 7));
    router.resource(`items${i}`, BenchController, { only: [...only] });
  }
}

function tollgateApp(n: number, closures: boolean): Fetch {
  const router = new Router();
  declare(router, n);
  if (closures) {
    const table = new Router();
    for (const r of router.routes) {
      const param = r.parameterNames[0];
      const action = r.routeName!.split('.').at(-1);
      table.match(r.methods, r.path, (c) => (param ? { action, id: c.req.param(param) } : { action }));
    }
    return table.commit(new Container(), createLogger('silent')).fetch;
  }
  return router.commit(new Container(), createLogger('silent')).fetch;
}

function honoApp(n: number): Fetch {
  const router = new Router();
  declare(router, n);
  const app = new Hono();
  for (const r of router.routes) {
    const param = r.parameterNames[0];
    const action = r.routeName!.split('.').at(-1);
    app.on([...r.methods], toHonoPath(r.path, r.wheres), (c) =>
      c.json(param ? { action, id: c.req.param(param) } : { action }),
    );
  }
  return app.fetch;
}

/** Requests spread over the whole table, the last resources included. */
function requests(n: number): Request[] {
  const resources = Math.ceil(n / 7);
  const out: Request[] = [];
  for (let k = 0; k < 64; k++) {
    const i = Math.floor((k * (resources - 1)) / 63);
    const kind = k % 3;
    const path = kind === 0 ? `/items${i}` : `/items${i}/${k}`;
    // The trimmed last resource may lack show: fall back to index.
    out.push(new Request(`http://localhost${kind !== 0 && i * 7 + 4 > n ? `/items${i}` : path}`));
  }
  return out;
}

/**
 * Lookups per CPU-second of this process: on a shared machine, wall-clock rates mostly measure
 * the neighbours; CPU time counts only the work done here (GC threads included, for both apps).
 */
async function measure(fetch: Fetch, reqs: Request[], ms: number): Promise<number> {
  const start = performance.now();
  const cpu = process.cpuUsage();
  let count = 0;
  while (performance.now() - start < ms) {
    for (let j = 0; j < 256; j++) {
      const res = await fetch(reqs[(count + j) & 63]!);
      if (res.status !== 200) throw new Error(`bench request failed: ${res.status}`);
    }
    count += 256;
  }
  const used = process.cpuUsage(cpu);
  return count / ((used.user + used.system) / 1e6);
}

/**
 * About 12 s. The machine is shared and noisy, so each size runs many short rounds that measure the
 * apps back to back (order rotating), and the ratio reported is the median of the per-round ratios.
 */
export async function runRoutingBench(options: { rounds?: number; roundMs?: number } = {}): Promise<Row[]> {
  const rounds = options.rounds ?? 20;
  const roundMs = options.roundMs ?? 60;
  const rows: Row[] = [];
  for (const n of [10, 100, 1000]) {
    const reqs = requests(n);
    const apps: [string, Fetch][] = [
      ['hono', honoApp(n)],
      ['controller', tollgateApp(n, false)],
      ['closure', tollgateApp(n, true)],
    ];
    for (const [, fetch] of apps) await measure(fetch, reqs, 150); // warm up the JIT
    const samples: Record<string, number[]> = { hono: [], controller: [], closure: [] };
    const ratios: Record<string, number[]> = { controller: [], closure: [] };
    for (let round = 0; round < rounds; round++) {
      const rate: Record<string, number> = {};
      for (let k = 0; k < apps.length; k++) {
        const [name, fetch] = apps[(round + k) % apps.length]!;
        rate[name] = await measure(fetch, reqs, roundMs);
        samples[name]!.push(rate[name]!);
      }
      for (const variant of ['controller', 'closure']) ratios[variant]!.push(rate[variant]! / rate.hono!);
    }
    const hono = median(samples.hono!);
    for (const variant of ['controller', 'closure']) {
      const tollgate = median(samples[variant]!);
      rows.push({
        bench: 'routing',
        variant,
        routes: n,
        unit: 'lookups/cpu-s',
        tollgate,
        hono,
        ratio: median(ratios[variant]!),
      });
    }
  }
  return rows;
}

export function formatRoutingRows(rows: readonly Row[]): string {
  const lines = ['routes  variant   tollgate/cpu-s  hono/cpu-s  ratio (median of paired rounds)'];
  for (const r of rows)
    lines.push(
      `${String(r.routes).padStart(6)}  ${r.variant.padEnd(10)}  ${Math.round(r.tollgate).toLocaleString('en-US').padStart(14)}  ${Math.round(r.hono).toLocaleString('en-US').padStart(10)}  ${r.ratio.toFixed(2)}`,
    );
  for (const variant of ['controller', 'closure']) {
    const of = (n: number) => rows.find((r) => r.variant === variant && r.routes === n)?.ratio ?? Number.NaN;
    lines.push(`${variant}: ratio at 1,000 routes / ratio at 10 routes = ${(of(1000) / of(10)).toFixed(2)}`);
  }
  return lines.join('\n');
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const started = performance.now();
  const rows = await runRoutingBench();
  console.log(formatRoutingRows(rows));
  console.log(`(${((performance.now() - started) / 1000).toFixed(1)} s)`);
}
