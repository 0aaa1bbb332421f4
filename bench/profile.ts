// Summarises a V8 `.cpuprofile` (from `BENCH_CPU_PROF=<scenario> npm run bench`, or any
// `node --cpu-prof` run): the top functions by self time, and self time by package or folder,
// so docs/benchmarks.md can say where a path spends its time.
//   npx tsx bench/profile.ts bench/results/profiles/<scenario>[/<file>.cpuprofile] [top] [last-seconds] [operations]
// With `operations` (the requests served in those seconds: the row's rate × BENCH_DURATION) it
// prints µs per operation, counting each sample as one sampling interval (see `summarise`).
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}

interface Profile {
  nodes: ProfileNode[];
  startTime: number;
  endTime: number;
  samples: number[];
  timeDeltas: number[];
}

/** `node_modules/<pkg>` (scoped too), `src/<folder>`, `node:` internals, or the V8 pseudo-frames. */
export function origin(url: string, functionName: string): string {
  if (!url) return `(${functionName || 'native'})`;
  const modules = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url);
  if (modules) return modules[1]!;
  const ours = /\/(src|dist|app|bench)\/([^/]+)/.exec(url);
  // The compiled servers run dist/ (the package) and build/app: named as their sources.
  if (ours) return `${ours[1] === 'dist' ? 'src' : ours[1]}/${ours[2]}`;
  if (url.startsWith('node:')) return url;
  return url.replace(/^file:\/\//, '');
}

/** `src/…` or `app/…` for Tollgate's own code, from the sources or compiled (`dist/`, `build/app/`). */
function ownSource(url: string): string | undefined {
  if (url.includes('/node_modules/')) return undefined;
  const own = /\/(src|dist|app)\/(.*)$/.exec(url);
  if (!own) return undefined;
  return `${own[1] === 'dist' ? 'src' : own[1]}/${own[2]}`;
}

/**
 * `lastSeconds` keeps only the samples of the final seconds before the process exited — the
 * load window, since the runner stops a server as soon as its measurement ends — so start-up
 * (module loading, key generation, seeding) does not dilute the picture.
 */
/**
 * `bySamples` weighs every sample by the sampling interval (the median gap) instead of the time
 * since the one before: on a loaded machine the thread is often off the CPU between two samples,
 * and the gap would be charged to the function it was preempted in (a socket `writev` that woke
 * PostgreSQL, typically). Counted so, the busy samples come close to the thread's CPU time.
 */
export function summarise(
  profile: Profile,
  top = 25,
  lastSeconds = Number.POSITIVE_INFINITY,
  bySamples = false,
) {
  const self = new Map<number, number>();
  const from = profile.endTime - lastSeconds * 1e6;
  const gaps = [...profile.timeDeltas].sort((a, b) => a - b);
  const interval = gaps[Math.floor(gaps.length / 2)] ?? 0;
  let at = profile.startTime;
  profile.samples.forEach((id, i) => {
    at += profile.timeDeltas[i] ?? 0;
    const weight = bySamples ? interval : (profile.timeDeltas[i] ?? 0);
    if (at >= from) self.set(id, (self.get(id) ?? 0) + weight);
  });
  const total = [...self.values()].reduce((a, b) => a + b, 0);
  const byFunction = new Map<string, number>();
  const byOrigin = new Map<string, number>();
  for (const node of profile.nodes) {
    const time = self.get(node.id) ?? 0;
    if (!time) continue;
    const { functionName, url, lineNumber } = node.callFrame;
    const file = url.replace(/^.*\/(node_modules|src|app|bench)\//, '$1/');
    const key = `${functionName || '(anonymous)'} ${file ? `${file}:${lineNumber + 1}` : ''}`.trim();
    byFunction.set(key, (byFunction.get(key) ?? 0) + time);
    const where = origin(url, functionName);
    byOrigin.set(where, (byOrigin.get(where) ?? 0) + time);
  }
  // Inclusive time: a sample counts once for every distinct function on its stack.
  const parent = new Map<number, number>();
  for (const node of profile.nodes) for (const child of node.children ?? []) parent.set(child, node.id);
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const inclusive = new Map<string, number>();
  for (const [id, time] of self) {
    const seen = new Set<string>();
    for (let at: number | undefined = id; at !== undefined; at = parent.get(at)) {
      const { functionName, url, lineNumber } = byId.get(at)!.callFrame;
      const source = ownSource(url);
      if (source === undefined) continue;
      const key = `${functionName || '(anonymous)'} ${source}:${lineNumber + 1}`;
      if (seen.has(key)) continue;
      seen.add(key);
      inclusive.set(key, (inclusive.get(key) ?? 0) + time);
    }
  }
  const rank = (map: Map<string, number>) =>
    [...map.entries()]
      .sort((a, b) => b[1] - a[1])
      .slice(0, top)
      .map(([name, time]) => ({ name, percent: (100 * time) / total, ms: time / 1000 }));
  return {
    totalMs: total / 1000,
    functions: rank(byFunction),
    origins: rank(byOrigin),
    ours: rank(inclusive),
  };
}

/** The newest main-thread profile in a folder (tsx's loader thread writes one too: `.1.`). */
function newest(path: string): string {
  if (!statSync(path).isDirectory()) return path;
  const files = readdirSync(path)
    .filter((name) => /^CPU\.\d+\.\d+\.\d+\.0\.\d+\.cpuprofile$/.test(name))
    .map((name) => join(path, name))
    .sort((a, b) => statSync(b).mtimeMs - statSync(a).mtimeMs);
  if (!files[0]) throw new Error(`no .cpuprofile in ${path}`);
  return files[0];
}

if (process.argv[1]?.endsWith('profile.ts')) {
  const file = newest(process.argv[2] ?? 'bench/results/profiles');
  const top = Number(process.argv[3] ?? 25);
  const last = process.argv[4] ? Number(process.argv[4]) : undefined;
  const operations = process.argv[5] ? Number(process.argv[5]) : undefined;
  const summary = summarise(
    JSON.parse(readFileSync(file, 'utf8')) as Profile,
    top,
    last,
    operations !== undefined,
  );
  const line = (r: { name: string; percent: number; ms: number }) =>
    operations === undefined
      ? `${r.percent.toFixed(1).padStart(5)}%  ${r.name}`
      : `${((r.ms * 1000) / operations).toFixed(0).padStart(6)} µs/op  ${r.name}`;
  console.log(`${file}: ${summary.totalMs.toFixed(0)} ms sampled\n\nself time by package/folder:`);
  for (const r of summary.origins) console.log(line(r));
  console.log('\ntop functions by self time:');
  for (const r of summary.functions) console.log(line(r));
  console.log('\nTollgate functions (src/, app/) by inclusive time:');
  for (const r of summary.ours) console.log(line(r));
}
