import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { Redis } from 'ioredis';
import { freePort } from './free-port.js';

export interface OwnRedis {
  url: string;
  /** Stops the process (SIGSTOP): connections stay open, commands get no answer. */
  pause(): void;
  resume(): void;
  stop(): Promise<void>;
}

/** A `redis-server` of the test's own on a free loopback port, persisting nothing. */
export async function startRedisServer(): Promise<OwnRedis> {
  const port = await freePort();
  const child: ChildProcess = spawn(
    'redis-server',
    ['--bind', '127.0.0.1', '--port', String(port), '--save', '', '--appendonly', 'no'],
    { stdio: 'ignore' },
  );
  const url = `redis://127.0.0.1:${port}`;
  for (let attempt = 0; ; attempt++) {
    const probe = new Redis(url, { lazyConnect: true, retryStrategy: () => null });
    probe.on('error', () => undefined);
    const answered = await probe.connect().then(
      () => probe.ping(),
      () => undefined,
    );
    probe.disconnect();
    if (answered === 'PONG') break;
    if (attempt === 100) throw new Error(`redis-server did not start on port ${port}`);
    await new Promise((done) => setTimeout(done, 50));
  }
  return {
    url,
    pause: () => child.kill('SIGSTOP'),
    resume: () => child.kill('SIGCONT'),
    stop: async () => {
      if (child.exitCode !== null || child.signalCode !== null) return;
      const exited = once(child, 'exit');
      child.kill('SIGKILL');
      await exited;
    },
  };
}
