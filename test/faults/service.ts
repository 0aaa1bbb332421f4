import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { freePort } from '../support/free-port.js';

const root = fileURLToPath(new URL('../../', import.meta.url));

export interface ServiceProcess {
  url: string;
  port: number;
  child: ChildProcess;
  /** Lines the service printed on stdout (its JSON log at the level asked). */
  lines: string[];
  /** SIGKILL, as an orchestrator or the kernel's OOM killer ends it: nothing runs after. */
  kill(): Promise<void>;
  /** SIGTERM, then the exit. */
  stop(): Promise<void>;
}

/**
 * The reference service as `npm start` runs it (`app/main.ts`, under tsx) in a process of its own,
 * on `env` over the test's environment; resolves once it is listening. `port` keeps the URL of an
 * earlier process (a restart).
 */
export async function startService(env: Record<string, string>, port?: number): Promise<ServiceProcess> {
  const listenOn = port ?? (await freePort());
  const url = `http://127.0.0.1:${listenOn}`;
  const child = spawn(process.execPath, ['--import', 'tsx', 'app/main.ts'], {
    cwd: root,
    env: {
      ...process.env,
      PORT: String(listenOn),
      APP_URL: url,
      LOG_LEVEL: 'warn',
      BILLING_RECONCILE_MINUTES: '0',
      USAGE_REPORT_MINUTES: '0',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const lines: string[] = [];
  let stderr = '';
  child.stderr!.on('data', (chunk: Buffer) => {
    stderr = (stderr + chunk.toString()).slice(-4000);
  });
  await new Promise<void>((resolve, reject) => {
    createInterface({ input: child.stdout! }).on('line', (line) => {
      lines.push(line);
      if (line.startsWith('Tollgate is running at')) resolve();
    });
    child.once('exit', (code) =>
      reject(new Error(`the service exited (${code}) before listening\n${stderr}`)),
    );
  });
  const end = async (signal: NodeJS.Signals) => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    const exited = once(child, 'exit');
    child.kill(signal);
    await exited;
  };
  return { url, port: listenOn, child, lines, kill: () => end('SIGKILL'), stop: () => end('SIGTERM') };
}
