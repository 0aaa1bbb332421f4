import { type ChildProcess, spawn } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { READY, RESULT, type ReadyMessage, type ResultMessage } from './protocol.js';

export interface ChildOptions {
  /** Path under `bench/`, e.g. `servers/bare-hono.ts`. */
  readonly script: string;
  readonly env?: Record<string, string>;
  /** Directory for a `--cpu-prof` profile; none when undefined. */
  readonly cpuProfDir?: string;
  /**
   * Directory for a `perf record` of the server from ready to stop (`perf.data`, every thread, on
   * the CPU only, the kernel's share too; JavaScript named through `--perf-basic-prof`).
   */
  readonly perfDir?: string;
  readonly startTimeoutMs?: number;
  /** Another checkout, built with `npm run build:bench`: its compiled server runs, from its folder. */
  readonly root?: string;
  /** CPUs the server may run on (`taskset -c`, e.g. `1`); any when undefined. */
  readonly cpus?: string;
}

export interface RunningChild {
  readonly pid: number;
  readonly ready: ReadyMessage;
  /**
   * Peak resident set size since the server was ready, in bytes (`VmHWM`, reset after
   * BENCH_READY so set-up does not count), or undefined off Linux.
   */
  peakRss(): number | undefined;
  /** CPU time used so far by all the child's threads, in ms, or undefined off Linux. */
  cpuMs(): number | undefined;
  stop(): Promise<void>;
}

const benchDir = fileURLToPath(new URL('../', import.meta.url));
const builtBenchDir = fileURLToPath(new URL('../../build/bench/', import.meta.url));

/**
 * Compiled (`npm run build:bench`, which `npm run bench` runs first): plain `node` on
 * `build/bench/…js`, as production runs. Otherwise under tsx, whose loader thread adds ~70 MiB
 * and its own CPU to every server.
 */
export const compiledServers = (): boolean => process.env.BENCH_COMPILED === '1';

function launch(options: ChildOptions): ChildProcess {
  const compiled = compiledServers() || options.root !== undefined;
  // --expose-gc: a server collects its set-up garbage (60,000 signed tokens, say) once it is ready.
  const args = compiled ? ['--expose-gc'] : ['--expose-gc', '--import', 'tsx'];
  if (options.cpuProfDir) args.push('--cpu-prof', `--cpu-prof-dir=${options.cpuProfDir}`);
  if (options.perfDir) args.push('--perf-basic-prof');
  const root = options.root ?? fileURLToPath(new URL('../../', import.meta.url));
  const built = options.root === undefined ? builtBenchDir : `${options.root}/build/bench/`;
  args.push(compiled ? `${built}${options.script.replace(/\.ts$/, '.js')}` : `${benchDir}${options.script}`);
  const [command, commandArgs] =
    options.cpus === undefined
      ? [process.execPath, args]
      : ['taskset', ['-c', options.cpus, process.execPath, ...args]];
  return spawn(command, commandArgs, {
    cwd: root,
    env: { ...process.env, ...options.env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
}

/** Resolves with the first protocol line of the given kind; rejects if the child dies first. */
function firstLine(child: ChildProcess, prefix: string, timeoutMs: number): Promise<unknown> {
  return new Promise((resolve, reject) => {
    let stderr = '';
    child.stderr?.on('data', (chunk: Buffer) => {
      stderr = (stderr + chunk.toString()).slice(-4000);
    });
    const lines = createInterface({ input: child.stdout! });
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`no ${prefix.trim()} within ${timeoutMs} ms\n${stderr}`));
    }, timeoutMs);
    lines.on('line', (line) => {
      if (!line.startsWith(prefix)) return;
      clearTimeout(timer);
      resolve(JSON.parse(line.slice(prefix.length)));
    });
    child.once('exit', (code, signal) => {
      clearTimeout(timer);
      reject(new Error(`exited (${signal ?? code}) before ${prefix.trim()}\n${stderr.trim()}`));
    });
  });
}

/**
 * Starts the peak-RSS count afresh (Linux 4.0+: writing 5 to `clear_refs` resets `VmHWM` to the
 * current RSS). A no-op where that is not possible.
 */
function resetPeakRss(pid: number): void {
  try {
    writeFileSync(`/proc/${pid}/clear_refs`, '5');
  } catch {
    // Not Linux, or not allowed: the peak then includes set-up.
  }
}

export function peakRssOf(pid: number): number | undefined {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    const match = /^VmHWM:\s+(\d+) kB/m.exec(status);
    return match ? Number(match[1]) * 1024 : undefined;
  } catch {
    return undefined;
  }
}

// USER_HZ: the unit of utime/stime in /proc/<pid>/stat; 100 on every Linux build Node runs on.
const ticksPerSecond = 100;

/** utime + stime of the whole process (every thread, libuv's pool included), in ms. */
export function cpuMsOf(pid: number): number | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // Fields after the parenthesised command name, which may itself contain spaces.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / ticksPerSecond;
  } catch {
    return undefined;
  }
}

function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    const force = setTimeout(() => child.kill('SIGKILL'), 10_000);
    child.once('exit', () => {
      clearTimeout(force);
      resolve();
    });
    child.kill('SIGTERM');
  });
}

/** `perf record` attached to `pid` at 999 Hz with call graphs, once it has started writing. */
async function recordPerf(pid: number, dir: string): Promise<ChildProcess> {
  const perf = spawn('perf', ['record', '-F', '999', '-g', '-p', String(pid), '-o', `${dir}/perf.data`], {
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  await attached(perf);
  return perf;
}

/** perf says nothing until it stops; give it a moment to attach, or fail with its error. */
function attached(perf: ChildProcess): Promise<void> {
  return new Promise((resolve, reject) => {
    const attached = setTimeout(resolve, 300);
    perf.once('exit', (code) => {
      clearTimeout(attached);
      reject(new Error(`perf record exited (${code})`));
    });
  });
}

/** SIGINT makes perf write its file and exit. */
function stopPerf(perf: ChildProcess): Promise<void> {
  if (perf.exitCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    perf.once('exit', () => resolve());
    perf.kill('SIGINT');
  });
}

/** Starts a server child and waits for its `BENCH_READY` line. */
export async function startServer(options: ChildOptions): Promise<RunningChild> {
  const child = launch(options);
  try {
    const ready = (await firstLine(child, READY, options.startTimeoutMs ?? 60_000)) as ReadyMessage;
    const pid = child.pid!;
    // The server collects its set-up garbage right after announcing (announce.ts); then reset.
    await sleep(500);
    resetPeakRss(pid);
    const perf = options.perfDir ? await recordPerf(pid, options.perfDir) : undefined;
    return {
      pid,
      ready,
      peakRss: () => peakRssOf(pid),
      cpuMs: () => cpuMsOf(pid),
      stop: async () => {
        if (perf) await stopPerf(perf);
        await stopChild(child);
      },
    };
  } catch (error) {
    await stopChild(child);
    throw error;
  }
}

/** Runs a measuring child to completion and returns its `BENCH_RESULT` with its peak RSS. */
export async function runMeasurement(
  options: ChildOptions,
): Promise<{ result: ResultMessage; peakRss: number | undefined }> {
  const child = launch(options);
  let peak: number | undefined;
  // The kernel drops /proc/<pid> at exit: sample while it runs.
  const sampler = setInterval(() => {
    peak = peakRssOf(child.pid!) ?? peak;
  }, 100);
  try {
    const result = (await firstLine(child, RESULT, options.startTimeoutMs ?? 300_000)) as ResultMessage;
    peak = peakRssOf(child.pid!) ?? peak;
    return { result, peakRss: peak };
  } finally {
    clearInterval(sampler);
    await stopChild(child);
  }
}
