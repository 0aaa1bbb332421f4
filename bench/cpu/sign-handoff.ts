// What handing an RS256 signature off the event loop costs the event loop, in process: N
// signatures of a token-sized input with `--concurrency` in flight, the key prepared once, each
// way measured in interleaved rounds. Per signature: the main thread's CPU (its schedstat, in ns),
// the whole process's (`process.cpuUsage`: the pool or worker threads included) and wall time.
//   sync      crypto.sign on the event loop (blocks it for the whole signature)
//   callback  crypto.sign with a callback: a job on libuv's pool (Tollgate's `signOffThread`)
//   subtle    crypto.subtle.sign with a CryptoKey (WebCrypto: also libuv's pool, plus promises)
//   jose      jose SignJWT with the same CryptoKey (WebCrypto underneath, plus its builder)
//   worker    a worker thread signing synchronously, one message each way per signature
//   batch     the same worker, the signatures asked in one event-loop turn sent as one message
//             (flushed by setImmediate: a server's requests arrive in separate I/O callbacks)
//   npx tsx bench/cpu/sign-handoff.ts [--alg RS256] [--ops 2000] [--rounds 3] [--concurrency 10]
//                                     [--only 'callback|batch']
import { generateKeyPairSync, type KeyObject, sign, webcrypto } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { Worker } from 'node:worker_threads';
import { SignJWT } from 'jose';
import { median } from '../lib/median.js';

const { values } = parseArgs({
  options: {
    ops: { type: 'string', default: '2000' },
    rounds: { type: 'string', default: '3' },
    concurrency: { type: 'string', default: '10' },
    only: { type: 'string' },
  },
});
const ops = Number(values.ops);
const concurrency = Number(values.concurrency);

const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
const pkcs8 = privateKey.export({ type: 'pkcs8', format: 'der' });
const cryptoKey = await webcrypto.subtle.importKey(
  'pkcs8',
  pkcs8,
  { name: 'RSASSA-PKCS1-v1_5', hash: 'SHA-256' },
  false,
  ['sign'],
);
// A token-sized signing input (header.payload of an RFC 9068 access token: ~330 bytes).
const input = Buffer.from(`${'h'.repeat(70)}.${'p'.repeat(260)}`);

/** The worker signs synchronously; a message holds one input or a batch of them. */
const worker = new Worker(
  `const { parentPort, workerData } = require('node:worker_threads');
   const { createPrivateKey, sign } = require('node:crypto');
   const key = createPrivateKey({ key: Buffer.from(workerData), format: 'der', type: 'pkcs8' });
   parentPort.on('message', ({ id, data }) => {
     const out = Array.isArray(data) ? data.map((d) => sign('sha256', d, key)) : sign('sha256', data, key);
     parentPort.postMessage({ id, out });
   });`,
  { eval: true, workerData: pkcs8 },
);
worker.unref();
const waiting = new Map<number, (out: Buffer | Buffer[]) => void>();
let nextId = 0;
worker.on('message', ({ id, out }: { id: number; out: Buffer | Buffer[] }) => {
  const settle = waiting.get(id)!;
  waiting.delete(id);
  settle(out);
});
function ask(data: Buffer | Buffer[]): Promise<Buffer | Buffer[]> {
  const id = nextId++;
  return new Promise((resolve) => {
    waiting.set(id, resolve);
    worker.postMessage({ id, data });
  });
}

let batch: { data: Buffer; resolve: (signature: Buffer) => void }[] = [];
function signBatched(data: Buffer): Promise<Buffer> {
  return new Promise((resolve) => {
    if (batch.length === 0) setImmediate(flush);
    batch.push({ data, resolve });
  });
}
function flush() {
  const taken = batch;
  batch = [];
  void ask(taken.map((entry) => entry.data)).then((out) => {
    (out as Buffer[]).forEach((signature, i) => {
      taken[i]!.resolve(signature);
    });
  });
}

const ways: Record<string, (key: KeyObject) => Promise<unknown>> = {
  sync: async (key) => sign('sha256', input, key),
  callback: (key) =>
    new Promise((resolve, reject) =>
      sign('sha256', input, key, (err, out) => (err ? reject(err) : resolve(out))),
    ),
  subtle: () => webcrypto.subtle.sign('RSASSA-PKCS1-v1_5', cryptoKey, input),
  jose: () =>
    new SignJWT({ client_id: 'bench-client', scope: 'check-status' })
      .setProtectedHeader({ alg: 'RS256', typ: 'at+jwt', kid: 'bench' })
      .setIssuer('http://127.0.0.1:3000')
      .setAudience('bench-client')
      .setSubject('bench-client')
      .setJti('token')
      .setIssuedAt()
      .setExpirationTime('1h')
      .sign(cryptoKey),
  worker: () => ask(input),
  batch: () => signBatched(input),
};
const only = values.only ? new RegExp(values.only) : undefined;
const chosen = Object.keys(ways).filter((name) => !only || only.test(name));

/** The main thread's CPU time in ns (schedstat: on-CPU time, exact, where stat counts ticks). */
function mainThreadNs(): number {
  return Number(readFileSync(`/proc/${process.pid}/task/${process.pid}/schedstat`, 'utf8').split(' ')[0]);
}

async function measure(way: (key: KeyObject) => Promise<unknown>) {
  let started = 0;
  const lane = async () => {
    while (started < ops) {
      started++;
      await way(privateKey);
    }
  };
  const cpu = process.cpuUsage();
  const main = mainThreadNs();
  const wall = process.hrtime.bigint();
  await Promise.all(Array.from({ length: concurrency }, lane));
  const wallNs = Number(process.hrtime.bigint() - wall);
  const used = process.cpuUsage(cpu);
  return {
    main: (mainThreadNs() - main) / 1000 / ops,
    all: (used.user + used.system) / ops,
    wall: wallNs / 1000 / ops,
  };
}

const results: Record<string, { main: number[]; all: number[]; wall: number[] }> = {};
for (const name of chosen) {
  results[name] = { main: [], all: [], wall: [] };
  await measure(ways[name]!); // warm-up
}
for (let round = 0; round < Number(values.rounds); round++) {
  for (const name of chosen) {
    process.stderr.write(`round ${round + 1} ${name}\n`);
    const r = await measure(ways[name]!);
    results[name]!.main.push(r.main);
    results[name]!.all.push(r.all);
    results[name]!.wall.push(r.wall);
  }
}
const load = readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ');
console.log(`RS256, ${ops} signatures × ${values.rounds} rounds, ${concurrency} in flight, load ${load}`);
console.log('way       main µs/sig  all µs/sig  wall µs/sig   (medians; range of main)');
for (const name of chosen) {
  const r = results[name]!;
  const f = (xs: number[]) => median(xs).toFixed(1).padStart(10);
  const range = `${Math.min(...r.main).toFixed(1)}–${Math.max(...r.main).toFixed(1)}`;
  console.log(`${name.padEnd(9)} ${f(r.main)}  ${f(r.all)}  ${f(r.wall)}   (${range})`);
}
