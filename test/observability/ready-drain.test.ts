import { once } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { type ServiceProcess, startService } from '../faults/service.js';
import { createTestDatabase, type TestDatabase } from '../support/database.js';
import { ENGINES } from '../support/engines.js';

describe.each(ENGINES)('SIGTERM drains: /ready answers 503 while the service still serves (%s)', (engine) => {
  let database: TestDatabase | undefined;
  let service: ServiceProcess | undefined;
  const storage = mkdtempSync(join(tmpdir(), 'tollgate-drain-'));
  afterAll(async () => {
    await service?.kill();
    await database?.drop();
    rmSync(storage, { recursive: true, force: true });
  });

  it('after SIGTERM, /ready is 503 naming draining and /health still 200, then the process exits 0', async () => {
    database = await createTestDatabase(engine);
    // A drain long enough to be seen; the process exits when it ends.
    service = await startService({
      DATABASE_URL: database.url,
      STORAGE_PATH: storage,
      SHUTDOWN_DRAIN_MS: '3000',
    });
    const ready = await fetch(`${service.url}/ready`);
    expect(ready.status).toBe(200);
    expect((await ready.json()).checks).not.toHaveProperty('draining');

    const exited = once(service.child, 'exit');
    service.child.kill('SIGTERM');
    let draining: Response | undefined;
    while (!draining) {
      const res = await fetch(`${service.url}/ready`);
      if (res.status === 503) draining = res;
      else expect(res.status).toBe(200);
    }
    expect(await draining.json()).toMatchObject({
      status: 'not ready',
      checks: { draining: 'failed', database: 'ok' },
    });
    expect((await fetch(`${service.url}/health`)).status).toBe(200);
    const [code] = await exited;
    expect(code).toBe(0);
  }, 60_000);
});
