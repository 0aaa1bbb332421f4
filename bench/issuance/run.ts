// CPU time per issued token vs per raw `jose` signature: a loaded machine makes wall-clock rates
// unreliable, but CPU time per operation is stable, and (jose CPU per sign) / (server CPU per
// token) approximates the throughput ratio on one core.
//   npx tsx bench/issuance/run.ts [--alg RS256|ES256|EdDSA] [--requests 4000] [--rounds 3]
//                                 [--concurrency 16] [--profile <dir>] [--peer]
// --peer also drives oidc-provider (bench/servers/oidc-provider.ts, JWT access tokens with the
// same algorithm) the same way, its CPU read from /proc, interleaved with Tollgate's rounds.
// BENCH_DATABASE_URL=postgres://… runs it on PostgreSQL instead of a temporary SQLite file.
import { type ChildProcess, execFileSync, fork, spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import http from 'node:http';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { median } from '../lib/median.js';

const { values } = parseArgs({
  options: {
    alg: { type: 'string', default: 'RS256' },
    requests: { type: 'string', default: '4000' },
    rounds: { type: 'string', default: '3' },
    concurrency: { type: 'string', default: '16' },
    profile: { type: 'string' },
    peer: { type: 'boolean', default: false },
  },
});
const requests = Number(values.requests);
const here = (file: string) => fileURLToPath(new URL(file, import.meta.url));
const execArgv = ['--import', 'tsx'];
if (values.profile) execArgv.push('--cpu-prof', `--cpu-prof-dir=${values.profile}`);

interface Ready {
  port: number;
  clientId: string;
  clientSecret: string;
  algorithm: string;
  storagePath: string;
}
type Usage = { user: number; system: number };

const child = fork(here('./server.ts'), [], {
  execArgv,
  env: { ...process.env, OAUTH_SIGNING_ALG: values.alg },
  stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
});
const waitFor = <T>(type: string) =>
  new Promise<T>((resolve, reject) => {
    const onMessage = (m: { type: string } & T) => {
      if (m.type !== type) return;
      child.off('message', onMessage);
      resolve(m);
    };
    child.on('message', onMessage);
    child.once('exit', (code) => reject(new Error(`server exited (${code})`)));
  });
const ready = await waitFor<Ready>('ready');
const cpu = async () => {
  const reply = waitFor<{ usage: Usage }>('cpu');
  child.send({ type: 'cpu' });
  const { usage } = await reply;
  return usage.user + usage.system;
};

interface Target {
  port: number;
  path: string;
  basic: string;
}
const agent = new http.Agent({ keepAlive: true, maxSockets: Number(values.concurrency) });
// The body and client authentication of bench/lib/scenarios.ts (client_secret_basic).
const body = new URLSearchParams({ grant_type: 'client_credentials', scope: 'check-status' }).toString();
const basicOf = (id: string, secret: string) =>
  `Basic ${Buffer.from(`${encodeURIComponent(id)}:${encodeURIComponent(secret)}`).toString('base64')}`;
const tollgate: Target = {
  port: ready.port,
  path: '/oauth/token',
  basic: basicOf(ready.clientId, ready.clientSecret),
};
const issue = (target: Target) =>
  new Promise<void>((resolve, reject) => {
    const req = http.request(
      {
        agent,
        host: '127.0.0.1',
        port: target.port,
        path: target.path,
        method: 'POST',
        headers: {
          'content-type': 'application/x-www-form-urlencoded',
          'content-length': Buffer.byteLength(body),
          authorization: target.basic,
        },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
          if (res.statusCode !== 200) reject(new Error(`${res.statusCode} ${Buffer.concat(chunks)}`));
          else resolve();
        });
      },
    );
    req.on('error', reject);
    req.end(body);
  });
const drive = async (n: number, target: Target = tollgate) => {
  let next = 0;
  const worker = async () => {
    while (next++ < n) await issue(target);
  };
  await Promise.all(Array.from({ length: Number(values.concurrency) }, worker));
};

const joseSign = (): number =>
  JSON.parse(
    execFileSync(
      process.execPath,
      ['--import', 'tsx', here('./jose-sign.ts'), ready.storagePath, ready.algorithm, String(requests)],
      {
        encoding: 'utf8',
      },
    ),
  ).cpuUsPerSign;

await drive(Math.min(2000, requests)); // warm-up: JIT, statement cache, client cache
if (values.profile) {
  // Only the load in the profile: drive, then stop at once (read it with bench/profile.ts and
  // the printed seconds as its last-seconds window).
  const started = performance.now();
  await drive(requests);
  console.log(JSON.stringify({ profiledSeconds: Math.ceil((performance.now() - started) / 1000) }));
  child.send({ type: 'stop' });
  agent.destroy();
  await new Promise((resolve) => child.once('exit', resolve));
  process.exit(0);
}
/** utime + stime of a child from /proc (Linux), in µs: works for a server that cannot be asked. */
const procCpu = (pid: number) => {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return ((Number(fields[11]) + Number(fields[12])) * 1e6) / 100; // USER_HZ is 100 on Linux
};
let peer: { child: ChildProcess; target: Target } | undefined;
if (values.peer) {
  const peerChild = spawn(process.execPath, ['--import', 'tsx', here('../servers/oidc-provider.ts')], {
    env: { ...process.env, BENCH_ALG: ready.algorithm, BENCH_FORMAT: 'jwt' },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const line = await new Promise<string>((resolve) => {
    createInterface({ input: peerChild.stdout! }).on('line', (l) => {
      if (l.startsWith('BENCH_READY ')) resolve(l.slice('BENCH_READY '.length));
    });
  });
  const announced = JSON.parse(line) as {
    port: number;
    fixtures: { clientId: string; clientSecret: string };
  };
  const target = {
    port: announced.port,
    path: '/token',
    basic: basicOf(announced.fixtures.clientId, announced.fixtures.clientSecret),
  };
  peer = { child: peerChild, target };
  await drive(Math.min(2000, requests), target);
}

const server: number[] = [];
const wall: number[] = [];
const jose: number[] = [];
const peers: number[] = [];
const peerWall: number[] = [];
for (let round = 0; round < Number(values.rounds); round++) {
  const before = await cpu();
  const started = performance.now();
  await drive(requests);
  wall.push((requests * 1000) / (performance.now() - started));
  server.push((await cpu()) - before);
  jose.push(joseSign());
  if (peer) {
    const start = procCpu(peer.child.pid!);
    const peerStarted = performance.now();
    await drive(requests, peer.target);
    peerWall.push((requests * 1000) / (performance.now() - peerStarted));
    peers.push(procCpu(peer.child.pid!) - start);
  }
}
const perToken = median(server) / requests;
const perSign = median(jose);
console.log(
  JSON.stringify({
    algorithm: ready.algorithm,
    requests,
    serverCpuUsPerToken: Math.round(perToken),
    joseCpuUsPerSign: Math.round(perSign),
    ratio: Number((perSign / perToken).toFixed(3)),
    oneCoreTokensPerSecond: Math.round(1e6 / perToken),
    // Wall-clock, for information only: on a loaded machine it says more about the neighbours.
    wallTokensPerSecond: Math.round(median(wall)),
    ...(peer
      ? {
          oidcProviderCpuUsPerToken: Math.round(median(peers) / requests),
          vsOidcProvider: Number((median(peers) / requests / perToken).toFixed(3)),
          oidcProviderWallTokensPerSecond: Math.round(median(peerWall)),
        }
      : {}),
    rounds: {
      serverUsPerToken: server.map((s) => Math.round(s / requests)),
      joseUsPerSign: jose.map(Math.round),
      ...(peer ? { oidcProviderUsPerToken: peers.map((p) => Math.round(p / requests)) } : {}),
    },
  }),
);
peer?.child.kill('SIGTERM');
child.send({ type: 'stop' });
agent.destroy();
