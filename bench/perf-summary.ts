// Summarises a `perf record` of a bench server (`BENCH_PERF=<scenario>`, see lib/options.ts): CPU
// per operation by thread, by component and by JavaScript function. perf samples only what is on
// a CPU, so unlike a V8 `.cpuprofile` a thread preempted in a socket write (one that woke
// PostgreSQL) or in handing a signature to libuv's pool is not charged for the time it waited,
// and the other threads (the pool's RSA signatures and argon2id) and the kernel are counted too.
//   npx tsx bench/perf-summary.ts bench/results/perf/<scenario>[/perf.data] <operations> [top]
// `operations`: the requests the server served while recorded, from ready to stop: the row's
// rate × (BENCH_WARMUP + BENCH_DURATION).
import { execFileSync } from 'node:child_process';
import { statSync } from 'node:fs';
import { origin } from './profile.js';

interface Frame {
  readonly sym: string;
  readonly dso: string;
}

interface Sample {
  readonly tid: number;
  readonly ns: number;
  /** Leaf first. */
  readonly frames: readonly Frame[];
}

/** `perf script`'s samples: a `tid period` line, then one `addr sym (dso)` line per frame. */
export function samplesOf(file: string): Sample[] {
  const text = execFileSync('perf', ['script', '-i', file, '-F', 'tid,period,ip,sym,dso'], {
    encoding: 'utf8',
    maxBuffer: 1024 * 1024 * 1024,
    stdio: ['ignore', 'pipe', 'ignore'],
  });
  const samples: Sample[] = [];
  for (const block of text.split('\n\n')) {
    const [head, ...lines] = block.trim().split('\n');
    const header = /^(\d+)\s+(\d+)/.exec(head?.trim() ?? '');
    if (!header) continue;
    const frames = lines.map((line) => {
      const frame = /^\s*[0-9a-f]+\s+(.*)\s+\((.*)\)$/.exec(line);
      return { sym: frame?.[1] ?? '[unknown]', dso: frame?.[2] ?? '' };
    });
    samples.push({ tid: Number(header[1]), ns: Number(header[2]), frames });
  }
  return samples;
}

const isJs = (frame: Frame) => frame.sym.startsWith('JS:');
const openssl =
  /^(ossl_|_*bn_|BN_|rsa|RSA|EVP_|evp_|sha\d|SHA\d|KECCAK|CRYPTO_|OPENSSL_|ecp_|x25519|aesni|ASN1|asn1|ERR_)/;
const gc =
  /(Heap::|Scavenger|MarkCompact|MinorMarkSweep|MarkingVisitor|Sweeper|Evacuat|ConcurrentMarking|GCTracer|MemoryAllocator)/;
const compiler =
  /(v8::internal::compiler::|v8::internal::maglev::|v8::internal::baseline::|Compiler::|Parser)/;

/** `JS:*name file:///…/x.js:line:col` as `name <origin>/x.js:line`. */
function jsName(sym: string): string {
  const named = /^JS:[*~^]?(\S*) (\S+?):(\d+):\d+$/.exec(sym);
  if (!named) return sym;
  const [, name, url, line] = named;
  const file = url!.includes('/node_modules/')
    ? url!.replace(/^.*\/node_modules\//, '')
    : url!.replace(/^.*\/(build\/bench|dist|src|app)\//, '$1/');
  return `${name || '(anonymous)'} ${file}:${line}`;
}

/** What a sample's CPU went to: native work by its library, the rest by its nearest JavaScript caller. */
function componentOf(sample: Sample, main: number): string {
  const leaf = sample.frames[0] ?? { sym: '[unknown]', dso: '' };
  // Only the native frames under the nearest JavaScript one: a whole request runs under the
  // HTTP parser's native callback, say.
  const firstJs = sample.frames.findIndex(isJs);
  const native = firstJs === -1 ? sample.frames : sample.frames.slice(0, firstJs);
  const anywhere = (test: (frame: Frame) => boolean) => native.some(test);
  if (anywhere((frame) => frame.dso.includes('argon2'))) return 'argon2id (native)';
  if (anywhere((frame) => frame.dso.endsWith('/node') && openssl.test(frame.sym)))
    return sample.tid === main ? 'OpenSSL on the event loop' : 'OpenSSL on the pool (RSA signature)';
  if (leaf.dso.includes('better_sqlite3')) return 'SQLite engine (native)';
  if (anywhere((frame) => gc.test(frame.sym))) return 'V8 garbage collection';
  if (anywhere((frame) => compiler.test(frame.sym))) return 'V8 compilers (JIT, parsing)';
  if (leaf.dso.includes('kernel')) {
    const syms = sample.frames.map((frame) => frame.sym).join(' ');
    if (/tcp|inet|sock|skb|ip_|netif|loopback|unix_stream/.test(syms)) return 'kernel: sockets';
    if (/page_fault|do_anonymous_page|clear_page|folio|mmap|munmap|brk/.test(syms)) return 'kernel: memory';
    if (/futex|schedule|epoll/.test(syms)) return 'kernel: futex, epoll, scheduling';
    return 'kernel: other';
  }
  if (sample.tid !== main) return 'other threads';
  const js = sample.frames.find(isJs);
  if (!js) return 'event loop outside JavaScript (libuv, node C++)';
  const url = /^JS:\S* (\S+?):\d+:\d+$/.exec(js.sym)?.[1] ?? '';
  return `JS ${origin(url, '').replace(/^build\/bench\//, 'bench/')}`;
}

function rank(map: Map<string, number>, top: number): [string, number][] {
  return [...map].sort((a, b) => b[1] - a[1]).slice(0, top);
}

function add(map: Map<string, number>, key: string, ns: number): void {
  map.set(key, (map.get(key) ?? 0) + ns);
}

export function summarisePerf(samples: readonly Sample[], top = 30) {
  const main = Math.min(...samples.map((sample) => sample.tid));
  const threads = new Map<string, number>();
  const components = new Map<string, number>();
  const functions = new Map<string, number>();
  for (const sample of samples) {
    add(threads, sample.tid === main ? 'main thread (event loop)' : 'other threads', sample.ns);
    add(components, componentOf(sample, main), sample.ns);
    if (sample.tid !== main) continue;
    // The JavaScript function the sample is in, with the builtins and runtime it called.
    const js = sample.frames.find(isJs);
    add(functions, js ? jsName(js.sym) : `(no JS) ${sample.frames[0]?.sym ?? ''}`, sample.ns);
  }
  const totalNs = samples.reduce((sum, sample) => sum + sample.ns, 0);
  return {
    totalNs,
    threads: rank(threads, top),
    components: rank(components, top),
    functions: rank(functions, top),
  };
}

if (process.argv[1]?.endsWith('perf-summary.ts')) {
  const path = process.argv[2] ?? 'bench/results/perf';
  const file = statSync(path).isDirectory() ? `${path}/perf.data` : path;
  const operations = Number(process.argv[3]);
  const top = Number(process.argv[4] ?? 30);
  if (!(operations > 0))
    throw new Error('usage: perf-summary.ts <perf.data or its folder> <operations> [top]');
  const summary = summarisePerf(samplesOf(file), top);
  const perOp = (ns: number) => (ns / 1000 / operations).toFixed(0).padStart(6);
  const print = (rows: [string, number][]) => {
    for (const [name, ns] of rows) console.log(`${perOp(ns)} µs/op  ${name}`);
  };
  console.log(`${file}: ${perOp(summary.totalNs)} µs of CPU per operation\n\nby thread:`);
  print(summary.threads);
  console.log('\nby component (native work by library, the rest by its nearest JavaScript frame):');
  print(summary.components);
  console.log('\nmain thread by JavaScript function (with the builtins and runtime under it):');
  print(summary.functions);
}
