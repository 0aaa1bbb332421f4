import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import { connect, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../support/database.js';
import { ANY_ENGINE } from '../support/engines.js';
import { freePort } from '../support/free-port.js';

const root = fileURLToPath(new URL('../../', import.meta.url));
const GRACE_MS = 1_500;

/** A client that sends part of a request, then nothing more. */
function slowClient(port: number, text: string): Promise<{ socket: Socket; closed: Promise<number> }> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1', () => {
      socket.write(text);
      socket.resume(); // read what the server answers, so its close is seen
      const started = performance.now();
      const closed = new Promise<number>((done) =>
        socket.once('close', () => done(performance.now() - started)),
      );
      resolve({ socket, closed });
    });
    socket.on('error', () => undefined);
    socket.once('error', reject);
  });
}

/**
 * The reference service as `npm start` runs it (`app/main.ts`), with a short grace period: slow
 * clients are cut off by the HTTP timeouts, and SIGTERM ends the process within the grace period
 * whatever its clients do, after flushing.
 */
describe('the HTTP timeouts and shutdown of the reference service', () => {
  let database: TestDatabase;
  let storage: string;
  let child: ChildProcess;
  let port: number;
  const lines: string[] = [];

  beforeAll(async () => {
    database = await createTestDatabase(ANY_ENGINE);
    storage = mkdtempSync(join(tmpdir(), 'tollgate-shutdown-'));
    port = await freePort();
    child = spawn(process.execPath, ['--import', 'tsx', 'app/main.ts'], {
      cwd: root,
      env: {
        ...process.env,
        DATABASE_URL: database.url,
        STORAGE_PATH: storage,
        PORT: String(port),
        LOG_LEVEL: 'info',
        HTTP_HEADERS_TIMEOUT_MS: '1000',
        SHUTDOWN_GRACE_MS: String(GRACE_MS),
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    await new Promise<void>((resolve, reject) => {
      createInterface({ input: child.stdout! }).on('line', (line) => {
        lines.push(line);
        if (line.includes('Tollgate is listening')) resolve();
      });
      child.once('exit', (code) => reject(new Error(`the service exited (${code}) before listening`)));
    });
  });

  afterAll(async () => {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGKILL');
      await once(child, 'exit');
    }
    await database.drop();
    rmSync(storage, { recursive: true, force: true });
  });

  it('a client that never finishes its headers is cut off by the headers timeout (1 s here, 10 s by default)', async () => {
    const { closed } = await slowClient(port, 'GET /health HTTP/1.1\r\nHost: x\r\n');
    expect(await closed).toBeLessThan(5_000);
  });

  it('SIGTERM with a slow upload and an idle keep-alive connection: exits within grace + 3 s, flushed', async () => {
    const upload = await slowClient(
      port,
      'POST /login HTTP/1.1\r\nHost: x\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: 1000\r\n\r\nemail=',
    );
    const idle = await slowClient(port, 'GET /health HTTP/1.1\r\nHost: x\r\n\r\n');
    await new Promise((done) => setTimeout(done, 200));
    const started = performance.now();
    const exited = once(child, 'exit');
    child.kill('SIGTERM');
    const [code] = await exited;
    const ms = performance.now() - started;
    expect(code).toBe(0);
    expect(ms).toBeLessThan(GRACE_MS + 3_000);
    expect(await upload.closed).toBeLessThan(GRACE_MS + 3_000 + 1_000);
    await idle.closed;
    expect(lines.some((line) => line.includes('shut down: buffers flushed'))).toBe(true);
  });
});
