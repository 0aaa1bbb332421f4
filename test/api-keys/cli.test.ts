import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createApp } from '../../app/bootstrap.js';
import { run } from '../../src/cli/main.js';
import { listen } from '../../src/kernel/server.js';
import { createTestDatabase, type TestDatabase } from '../support/database.js';
import { ENGINES } from '../support/engines.js';

/** `tollgate key:create` against the reference app on a fresh database; the key is used over HTTP. */
describe.each(ENGINES)('tollgate key:create (%s)', (engine) => {
  let database: TestDatabase;
  let storage: string;
  let output: string[];
  let errors: string[];

  beforeAll(async () => {
    database = await createTestDatabase(engine);
    storage = mkdtempSync(join(tmpdir(), 'tollgate-cli-keys-'));
    process.env.DATABASE_URL = database.url;
    process.env.STORAGE_PATH = storage;
    process.env.LOG_LEVEL = 'silent';
    expect(await tollgate('install')).toBe(0);
    expect(await tollgate('user:create', '--email', 'grace@example.com', '--password', 'correct horse')).toBe(
      0,
    );
  });
  afterAll(async () => {
    await database.drop();
    rmSync(storage, { recursive: true, force: true });
  });

  async function tollgate(...argv: string[]): Promise<number> {
    output = [];
    errors = [];
    const log = vi.spyOn(console, 'log').mockImplementation((...args: unknown[]) => {
      output.push(args.join(' '));
    });
    const stderr = vi.spyOn(process.stderr, 'write').mockImplementation((chunk) => {
      errors.push(String(chunk));
      return true;
    });
    try {
      return await run(argv);
    } finally {
      log.mockRestore();
      stderr.mockRestore();
    }
  }

  it('--json prints the key once; the API accepts it with its scopes only, as Bearer and X-API-Key', async () => {
    const argv = [
      'key:create',
      '--user',
      'grace@example.com',
      '--name',
      'deploy',
      '--scopes',
      'check-status',
    ];
    expect(await tollgate(...argv, '--expires', '30', '--json')).toBe(0);
    const created = JSON.parse(output.join('')) as {
      key: string;
      name: string;
      scopes: string[];
      expires_at: string;
    };
    expect(created).toMatchObject({ name: 'deploy', scopes: ['check-status'] });
    expect(created.key).toMatch(/^tg_test_[0-9A-Za-z]{36}$/);
    const days = (Date.parse(created.expires_at) - Date.now()) / 86_400_000;
    expect(days).toBeGreaterThan(29.9);
    expect(days).toBeLessThanOrEqual(30);

    const app = await createApp();
    await app.boot();
    const server = await listen(app, '127.0.0.1', 0);
    try {
      const call = (method: string, headers: Record<string, string>) =>
        fetch(`${server.url}/api/orders`, { method, headers: { accept: 'application/json', ...headers } });
      expect((await call('GET', { authorization: `Bearer ${created.key}` })).status).toBe(200);
      expect((await call('GET', { 'x-api-key': created.key })).status).toBe(200);
      expect((await call('POST', { authorization: `Bearer ${created.key}` })).status).toBe(403);
    } finally {
      await server.close();
      await app.close();
    }

    // The same name again while the first key lives: refused (names are unique among live keys).
    expect(await tollgate(...argv)).toBe(1);
    expect(errors.join('')).toContain('You already have an API key with this name.');
  });

  it('prints a human summary without --json, and refuses bad input with exit code 1', async () => {
    expect(await tollgate('key:create', '--user', 'grace@example.com', '--name', 'human')).toBe(0);
    expect(output.join('\n')).toMatch(
      /created for grace@example.com[\s\S]*Scopes: \(none\)[\s\S]*Expires: never[\s\S]*\ntg_test_/,
    );
    expect(await tollgate('key:create', '--user', 'nobody@example.com', '--name', 'x')).toBe(1);
    expect(errors.join('')).toContain('No user with the e-mail nobody@example.com.');
    expect(
      await tollgate('key:create', '--user', 'grace@example.com', '--name', 'x', '--scopes', 'launch'),
    ).toBe(1);
    expect(errors.join('')).toMatch(/scope/);
    expect(await tollgate('key:create', '--user', 'grace@example.com', '--name', 'x', '--expires', '0')).toBe(
      1,
    );
    expect(errors.join('')).toContain('--expires must be a whole number from 1 to 3650.');
  });
});
