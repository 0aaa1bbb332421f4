import { mkdtempSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { keyPaths } from '../../src/oauth/keys/key-files.js';
import { SigningKeys } from '../../src/oauth/keys/signing-keys.js';
import { observabilityProvider } from '../../src/observability/provider.js';
import { type OAuthTestApp, oauthApp } from '../oauth/support.js';
import { ANY_ENGINE, ENGINES } from '../support/engines.js';
import { freePort } from '../support/free-port.js';

const ready = async (t: OAuthTestApp) => {
  const res = await fetch(`${t.url}/ready`);
  expect(res.headers.get('cache-control')).toBe('no-store');
  return [res.status, await res.json()];
};

describe.each(ENGINES)('GET /ready (%s)', (engine) => {
  let t: OAuthTestApp;

  beforeAll(async () => {
    t = await oauthApp({ engine, providers: [observabilityProvider()] });
  });
  afterAll(async () => t?.stop());

  it('200 when the database answers, its migrations have run and the signing keys load', async () => {
    expect(await ready(t)).toEqual([
      200,
      { status: 'ready', checks: { database: 'ok', migrations: 'ok', 'signing keys': 'ok' } },
    ]);
  });

  it('503 naming the signing keys while they cannot be read, 200 again once they can', async () => {
    const { privateKey } = keyPaths(t.app.config.storagePath);
    const keys = t.app.container.make(SigningKeys);
    renameSync(privateKey, `${privateKey}.away`);
    keys.reset();
    try {
      const [status, body] = await ready(t);
      expect([status, body.checks['signing keys']]).toEqual([503, 'failed']);
      expect(body.status).toBe('not ready');
    } finally {
      renameSync(`${privateKey}.away`, privateKey);
    }
    expect((await ready(t))[0]).toBe(200);
  });

  it('503 naming the migrations while one of a registered module has not run', async () => {
    const folder = mkdtempSync(join(tmpdir(), 'tollgate-migrations-'));
    writeFileSync(join(folder, '2099_01_01_000000_later.mjs'), 'export async function up() {}\n');
    t.app.migrationFolders.push(folder);
    try {
      const [status, body] = await ready(t);
      expect([status, body.checks]).toEqual([
        503,
        { database: 'ok', migrations: 'failed', 'signing keys': 'ok' },
      ]);
    } finally {
      t.app.migrationFolders.pop();
      rmSync(folder, { recursive: true, force: true });
    }
  });
});

// The Redis check does not touch the database: once, on SQLite.
describe('GET /ready with Redis configured', () => {
  it('503 naming Redis while nothing answers at its URL; the reason is logged, not answered', async () => {
    const port = await freePort();
    const t = await oauthApp({
      engine: ANY_ENGINE,
      providers: [observabilityProvider()],
      config: { redis: { url: `redis://127.0.0.1:${port}` } },
    });
    try {
      const res = await fetch(`${t.url}/ready`);
      const text = await res.text();
      expect([res.status, JSON.parse(text).checks.redis]).toEqual([503, 'failed']);
      expect(text).not.toContain(String(port));
    } finally {
      await t.stop();
    }
  });

  it.runIf(process.env.REDIS_URL)('200 with Redis ok when it answers', async () => {
    const t = await oauthApp({
      engine: ANY_ENGINE,
      providers: [observabilityProvider()],
      config: { redis: { url: process.env.REDIS_URL!, keyPrefix: `ready-test-${process.pid}:` } },
    });
    try {
      const [status, body] = await ready(t);
      expect([status, body.checks.redis]).toEqual([200, 'ok']);
    } finally {
      await t.stop();
    }
  });
});
