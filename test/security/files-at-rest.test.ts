import { chmodSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../../app/bootstrap.js';
import { closeBilling } from '../../src/billing/service-provider.js';
import { createLogger } from '../../src/core/logger.js';
import type { Application } from '../../src/kernel/application.js';
import { installOAuth } from '../../src/oauth/install.js';

/**
 * Password hashes, sessions, billing ids and signing keys at rest: the reference service, started
 * on an SQLite file under the common umask 022, creates every file that holds them 0600, and
 * warns at boot about one that another user of the machine can read.
 */
describe('files at rest', () => {
  const storagePath = mkdtempSync(join(tmpdir(), 'tollgate-files-'));
  const database = join(storagePath, 'db', 'tollgate.sqlite');
  let umask: number;

  async function start(lines: string[] = []): Promise<Application> {
    const sink = new Writable({
      write(chunk, _encoding, done) {
        lines.push(...String(chunk).trim().split('\n'));
        done();
      },
    });
    const app = await createApp(
      {
        app: { env: 'test', url: 'http://localhost', key: '' },
        storagePath,
        database: { url: database },
        routes: { cachePath: join(storagePath, 'routes.json') },
      },
      { logger: createLogger('warn', sink) },
    );
    await app.migrate();
    await installOAuth(app, { passwordClient: false });
    await app.boot();
    return app;
  }

  async function stop(app: Application): Promise<void> {
    await closeBilling(app);
    await app.close();
  }

  beforeAll(() => {
    umask = process.umask(0o022);
  });
  afterAll(() => {
    process.umask(umask);
    rmSync(storagePath, { recursive: true, force: true });
  });

  it('creates the database, its WAL and shared memory, the app key and the private signing key 0600', async () => {
    const lines: string[] = [];
    const app = await start(lines);
    // The migrations and the install wrote to the database: its WAL and shared memory exist.
    const files = ['db/tollgate.sqlite', 'db/tollgate.sqlite-wal', 'db/tollgate.sqlite-shm', 'app.key'];
    for (const file of files) {
      expect([file, statSync(join(storagePath, file)).mode & 0o777]).toEqual([file, 0o600]);
    }
    expect(statSync(join(storagePath, 'oauth-private.key')).mode & 0o777).toBe(0o600);
    expect(lines.filter((line) => line.includes('chmod 600'))).toEqual([]);
    await stop(app);
  });

  it('warns at boot, with the fix, about a database or key that others can read', async () => {
    chmodSync(database, 0o644);
    chmodSync(join(storagePath, 'oauth-private.key'), 0o640);
    const lines: string[] = [];
    const app = await start(lines);
    const warnings = lines.map((line) => JSON.parse(line)).filter((entry) => entry.msg.includes('chmod 600'));
    expect(warnings.map((w) => [w.file, w.mode])).toEqual(
      expect.arrayContaining([
        [database, '0644'],
        [join(storagePath, 'oauth-private.key'), '0640'],
      ]),
    );
    expect(warnings[0].msg).toContain('other users of this machine can read it');
    await stop(app);
  });
});
