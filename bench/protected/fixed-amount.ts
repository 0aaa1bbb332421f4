// A fixed number of requests to one server started by hand, so that a profile's self time divided
// by the count is microseconds a request by function (issue 35: the reused-token route against
// bare Hono, each profiled the same way). Starts `<command…>`, waits for its BENCH_READY line,
// sends 30,000 requests to warm it, then <count> on 10 connections, and prints the server's CPU
// per request from /proc (the whole process, and its main thread's user and system time):
//   npx tsx bench/protected/fixed-amount.ts 150000 node --cpu-prof build/bench/servers/bare-hono.js
// A server gets its path and tokens from the fixtures it announces: one token is sent with every
// request (BENCH_SCENARIO=protected), several in turn (BENCH_SCENARIO=protected_new, jose-verify).
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createInterface } from 'node:readline';
import autocannon, { type Result } from 'autocannon';
import { cpuMsOf } from '../lib/child.js';
import { READY, type ReadyMessage } from '../lib/protocol.js';
import { rotating } from '../lib/scenarios.js';

const [count, command, ...args] = process.argv.slice(2);
if (!command) throw new Error('usage: fixed-amount.ts <count> <command…>');
const requests = Number(count);
const server = spawn(command, args, { stdio: ['ignore', 'pipe', 'inherit'] });
const ready = await new Promise<ReadyMessage>((resolve) =>
  createInterface({ input: server.stdout! }).on('line', (line) => {
    if (line.startsWith(READY)) resolve(JSON.parse(line.slice(READY.length)));
  }),
);
const fixtures = ready.fixtures as { path?: string; tokens?: string[] } | undefined;
const path = fixtures?.path ?? '/bare';
const tokens = fixtures?.tokens ?? [];
const headers: Record<string, string> = tokens.length === 1 ? { authorization: `Bearer ${tokens[0]}` } : {};
const url = `http://127.0.0.1:${ready.port}${path}`;
// One rotation for the warm-up and the count, as the bench's load takes turns through the tokens.
const rotation = tokens.length > 1 ? { requests: rotating(path, tokens)() } : {};

/** utime and stime of the server's main thread, in ms (USER_HZ 100). */
function mainThreadMs(): [number, number] {
  const stat = readFileSync(`/proc/${server.pid}/task/${server.pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return [Number(fields[11]) * 10, Number(fields[12]) * 10];
}
/** When the last response of a `send` arrived: autocannon calls back on its next one-second tick. */
let lastResponse = 0;
const send = (amount: number) =>
  new Promise<Result>((resolve, reject) =>
    autocannon(
      {
        url,
        connections: 10,
        pipelining: 1,
        amount,
        headers,
        ...rotation,
      },
      (error, result) => (error ? reject(error) : resolve(result)),
    ).on('response', () => {
      lastResponse = performance.now();
    }),
  );

await send(30_000);
const [cpu0, [user0, sys0]] = [cpuMsOf(server.pid!)!, mainThreadMs()];
const started = performance.now();
const result = await send(requests);
const seconds = (lastResponse - started) / 1000;
const [cpu1, [user1, sys1]] = [cpuMsOf(server.pid!)!, mainThreadMs()];
const us = (ms: number) => Number(((ms * 1000) / requests).toFixed(1));
console.log(
  JSON.stringify({
    requests,
    failed: result.non2xx + result.errors,
    perSecond: Math.round(requests / seconds),
    cpuUsPerRequest: us(cpu1 - cpu0),
    mainUserUs: us(user1 - user0),
    mainSystemUs: us(sys1 - sys0),
  }),
);
server.kill('SIGTERM');
await new Promise((resolve) => server.once('exit', resolve));
