import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tollgate } from '../support/cli.js';
import { createTestDatabase, type TestDatabase } from '../support/database.js';
import { ENGINES } from '../support/engines.js';

describe.each(ENGINES)('tollgate audit:export and audit:purge (%s)', (engine) => {
  let database: TestDatabase;
  let env: Record<string, string>;
  const storage = mkdtempSync(join(tmpdir(), 'tollgate-audit-cli-'));

  beforeAll(async () => {
    database = await createTestDatabase(engine);
    env = { DATABASE_URL: database.url, STORAGE_PATH: storage, LOG_LEVEL: 'silent' };
  });
  afterAll(async () => {
    await database?.drop();
    rmSync(storage, { recursive: true, force: true });
  });

  const lines = (stdout: string) =>
    stdout
      .split('\n')
      .filter(Boolean)
      .map((line) => JSON.parse(line) as Record<string, unknown>);

  it('a command is audited under the actor cli, and the export prints it as JSON Lines from --since', async () => {
    const started = new Date().toISOString();
    const created = await tollgate(
      ['user:create', '--email', 'ada@example.com', '--password', 'correct horse'],
      env,
    );
    expect(created.code, created.stderr).toBe(0);
    const second = await tollgate(
      ['user:create', '--email', 'bob@example.com', '--password', 'correct horse'],
      env,
    );
    expect(second.code, second.stderr).toBe(0);

    const all = await tollgate(['audit:export', '--since', started], env);
    expect(all.code, all.stderr).toBe(0);
    const events = lines(all.stdout);
    expect(events.map((e) => [e.kind, e.actor, e.subject])).toEqual([
      ['account.registered', 'cli', expect.stringMatching(/^user:\d+$/)],
      ['account.registered', 'cli', expect.stringMatching(/^user:\d+$/)],
    ]);
    expect(events[0]).toMatchObject({ ip: null, request_id: null });

    const bob = Number(String(events[1]!.subject).slice('user:'.length));
    const one = await tollgate(['audit:export', '--since', '2020-01-01', '--user', String(bob)], env);
    expect(lines(one.stdout)).toEqual([events[1]]);
    const later = await tollgate(['audit:export', '--since', '2999-01-01'], env);
    expect(later.stdout).toBe('');
  }, 60_000);

  it('user:create --verified is audited once (no verification mail, still a registration); twice at once, once', async () => {
    const started = new Date().toISOString();
    const args = ['user:create', '--email', 'vera@example.com', '--password', 'correct horse', '--verified'];
    const runs = await Promise.all([tollgate(args, env), tollgate(args, env)]);
    expect(runs.map((r) => r.code).sort()).toEqual([0, 1]);
    const exported = await tollgate(
      ['audit:export', '--since', started, '--kind', 'account.registered'],
      env,
    );
    expect(exported.code, exported.stderr).toBe(0);
    expect(lines(exported.stdout)).toMatchObject([
      { kind: 'account.registered', actor: 'cli', details: { verified: true } },
    ]);
  }, 60_000);

  it('bad input is a message and exit code 1, no stack', async () => {
    const missing = await tollgate(['audit:export'], env);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain("required option '--since <time>' not specified");
    const bad = await tollgate(['audit:export', '--since', 'yesterday'], env);
    expect(bad.code).toBe(1);
    expect(bad.stderr).toContain('--since must be an ISO-8601 date or time');
    expect(bad.stderr).not.toContain('    at ');
  });

  it('audit:purge deletes what is past the retention, and only that', async () => {
    const all = lines((await tollgate(['audit:export', '--since', '2020-01-01'], env)).stdout);
    expect(all.length).toBeGreaterThan(0);
    const kept = await tollgate(['audit:purge'], { ...env, AUDIT_RETENTION_DAYS: '30' });
    expect(kept.code, kept.stderr).toBe(0);
    expect(kept.stdout).toBe('Purged 0 audit events older than 30 days.');
    const off = await tollgate(['audit:purge'], { ...env, AUDIT_RETENTION_DAYS: '0' });
    expect(off.stdout).toContain('Retention is off');
    expect(lines((await tollgate(['audit:export', '--since', '2020-01-01'], env)).stdout)).toEqual(all);
  });
});
