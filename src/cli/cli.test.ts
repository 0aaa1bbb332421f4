import { execFile } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { tollgate } from '../../test/support/cli.js';
import { createTestDatabase } from '../../test/support/database.js';
import { ENGINES } from '../../test/support/engines.js';

const exec = promisify(execFile);

/** The installed command as a user runs it: `bin/tollgate.js` in a process of its own. */
async function tollgateProcess(args: string[], env: Record<string, string>) {
  try {
    const { stdout, stderr } = await exec('node', ['bin/tollgate.js', ...args], {
      env: { ...process.env, ...env },
    });
    return { code: 0, stdout, stderr };
  } catch (err) {
    const e = err as { code: number; stdout: string; stderr: string };
    return { code: e.code, stdout: e.stdout, stderr: e.stderr };
  }
}

describe('tollgate CLI', () => {
  it('prints help for every command', async () => {
    const { code, stdout } = await tollgateProcess(['--help'], {});
    expect(code).toBe(0);
    expect(stdout).toContain('user:create');
    const sub = await tollgateProcess(['user:create', '--help'], {});
    expect(sub.stdout).toContain('--email');
  });
});

describe.each(ENGINES)('tollgate CLI (%s)', (engine) => {
  // The commands run in process (a process each loaded the TypeScript sources through tsx: 3 s
  // apiece on a quiet machine, 17-21 s at load average 12); the test above runs the real command.
  it('migrates, creates a user, and refuses bad input with exit code 1', async () => {
    const database = await createTestDatabase(engine);
    const env = {
      DATABASE_URL: database.url,
      STORAGE_PATH: mkdtempSync(join(tmpdir(), 'tollgate-cli-')),
      LOG_LEVEL: 'silent',
    };
    try {
      const migrate = await tollgate(['migrate'], env);
      expect(migrate.code, migrate.stderr).toBe(0);
      expect(migrate.stdout).toContain('create_users_table');

      const created = await tollgate(
        ['user:create', '--email', 'ada@example.com', '--password', 'correct horse'],
        env,
      );
      expect(created.code, created.stderr).toBe(0);
      expect(created.stdout).toMatch(/Created user \d+ <ada@example.com>/);

      const duplicate = await tollgate(
        ['user:create', '--email', 'ada@example.com', '--password', 'correct horse'],
        env,
      );
      expect(duplicate.code).toBe(1);
      expect(duplicate.stderr).toContain('The email has already been taken.');

      const bad = await tollgate(['user:create', '--email', 'not-an-email', '--password', 'short'], env);
      expect(bad.code).toBe(1);
      expect(bad.stderr).toContain('--email must be an e-mail address.');
      expect(bad.stderr).not.toMatch(/\n\s+at /);

      const missing = await tollgate(['user:create'], env);
      expect(missing.code).toBe(1);
      expect(missing.stderr).toContain("required option '--email <email>'");

      const status = await tollgate(['migrate:status'], env);
      expect(status.stdout).toMatch(/Ran\s+2026_11_21_000001_create_users_table/);
    } finally {
      await database.drop();
    }
  }, 60_000);
});
