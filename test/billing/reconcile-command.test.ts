import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { run } from '../../src/cli/main.js';
import { createTestDatabase, type TestDatabase } from '../support/database.js';
import { ENGINES } from '../support/engines.js';

/**
 * `tollgate billing:reconcile` through the CLI on the reference app (its offline sandbox); the
 * drift cases themselves run in the billing contract (`test/billing/contract/reconcile.ts`).
 */
describe.each(ENGINES)('tollgate billing:reconcile (%s)', (engine) => {
  let database: TestDatabase;
  let storage: string;
  const saved = { ...process.env };

  beforeAll(async () => {
    database = await createTestDatabase(engine);
    storage = mkdtempSync(join(tmpdir(), 'tollgate-reconcile-'));
    process.env.DATABASE_URL = database.url;
    process.env.STORAGE_PATH = storage;
    process.env.LOG_LEVEL = 'silent';
  });
  afterAll(async () => {
    for (const name of Object.keys(process.env)) if (!(name in saved)) delete process.env[name];
    Object.assign(process.env, saved);
    await database.drop();
    rmSync(storage, { recursive: true, force: true });
  });

  const tollgate = async (...argv: string[]) => {
    const out: string[] = [];
    const err: string[] = [];
    const log = vi
      .spyOn(console, 'log')
      .mockImplementation((...args: unknown[]) => void out.push(args.join(' ')));
    const stderr = vi.spyOn(process.stderr, 'write').mockImplementation((chunk: string | Uint8Array) => {
      err.push(String(chunk));
      return true;
    });
    try {
      return { code: await run(argv), out, err: err.join('') };
    } finally {
      log.mockRestore();
      stderr.mockRestore();
    }
  };

  it('a clean database: exit 0, in words and in JSON; an unknown --user is refused', async () => {
    const text = await tollgate('billing:reconcile');
    expect(text).toMatchObject({
      code: 0,
      out: ['Checked 0 user(s), 0 subscription row(s).', 'No drift: every row matches the provider.'],
    });
    const json = await tollgate('billing:reconcile', '--json', '--fix');
    expect(json.code).toBe(0);
    expect(JSON.parse(json.out[0]!)).toEqual({ users: 0, subscriptions: 0, drift: [], clean: true });
    const unknown = await tollgate('billing:reconcile', '--user', 'nobody@example.com');
    expect(unknown.code).toBe(1);
    expect(unknown.err).toBe('Error: No user nobody@example.com.\n');
  });
});
