import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { readFileSync } from 'node:fs';
import { request } from 'node:http';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import type { Engine } from '../support/engines.js';

export interface ChildServer {
  pid: number;
  url: string;
  storagePath: string;
  databaseUrl: string;
  /** The process's exit code once it has exited (a crash), else null. */
  exitCode(): number | null;
  /** Resident memory now (`VmRSS` in /proc/<pid>/status), in bytes. */
  rss(): number;
  stop(): Promise<void>;
}

const root = fileURLToPath(new URL('../../', import.meta.url));

/**
 * Spawns `test/security/reference-child.ts` under plain node (+ tsx) on a fresh database of the
 * engine (see test/support/engines.ts) and waits for its READY line.
 */
export async function startChildServer(
  engine: Engine,
  env: Record<string, string> = {},
): Promise<ChildServer> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'test/security/reference-child.ts'], {
    cwd: root,
    env: { ...process.env, ...env, TOLLGATE_TEST_ENGINE: engine },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const ready = await new Promise<{ url: string; storagePath: string; databaseUrl: string }>(
    (resolve, reject) => {
      let stderr = '';
      child.stderr!.on('data', (chunk: Buffer) => {
        stderr = (stderr + chunk.toString()).slice(-4000);
      });
      createInterface({ input: child.stdout! }).on('line', (line) => {
        if (line.startsWith('READY ')) resolve(JSON.parse(line.slice(6)));
      });
      child.once('exit', (code) => reject(new Error(`the server exited (${code}) before READY\n${stderr}`)));
    },
  );
  const pid = child.pid!;
  return {
    pid,
    ...ready,
    exitCode: () => child.exitCode ?? (child.signalCode ? 128 : null),
    rss: () => rssOf(pid),
    stop: () => stop(child),
  };
}

function rssOf(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  return Number(/^VmRSS:\s+(\d+) kB/m.exec(status)![1]) * 1024;
}

async function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return;
  const exited = once(child, 'exit');
  child.kill('SIGTERM');
  await exited;
}

export interface SentBody {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
  /** From the first byte sent to the response's status line. */
  ms: number;
}

/**
 * POSTs `size` bytes with node:http, announced by Content-Length or sent chunked. The server may
 * answer before the body is sent and close the connection: the answer counts, the write error not.
 */
export function sendLargeBody(
  url: string,
  options: { size: number; contentType: string; chunked?: boolean; headers?: Record<string, string> },
): Promise<SentBody> {
  const chunk = Buffer.alloc(64 * 1024, 'a');
  const headers: Record<string, string> = { 'content-type': options.contentType, ...options.headers };
  if (!options.chunked) headers['content-length'] = String(options.size);
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const req = request(url, { method: 'POST', headers });
    let answered = false;
    req.on('response', (res) => {
      answered = true;
      const ms = performance.now() - started;
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (text: string) => {
        body += text;
      });
      res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body, ms }));
      res.on('error', () => resolve({ status: res.statusCode!, headers: res.headers, body, ms }));
    });
    req.on('error', (err) => {
      if (!answered) reject(err);
    });
    let sent = 0;
    const pump = () => {
      while (sent < options.size && !answered && !req.destroyed) {
        const piece = chunk.subarray(0, Math.min(chunk.length, options.size - sent));
        sent += piece.length;
        if (!req.write(piece)) return void req.once('drain', pump);
      }
      if (!req.destroyed) req.end();
    };
    pump();
  });
}
