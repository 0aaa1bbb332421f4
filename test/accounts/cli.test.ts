import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tollgate } from '../support/cli.js';
import { createTestDatabase, type TestDatabase } from '../support/database.js';
import { ANY_ENGINE } from '../support/engines.js';
import { type Mailbox, startMailbox } from '../support/mailbox.js';

describe('tollgate user:create and user:reset-link', () => {
  let database: TestDatabase;
  let mailbox: Mailbox;
  let env: Record<string, string>;
  const storage = mkdtempSync(join(tmpdir(), 'tollgate-accounts-cli-'));

  beforeAll(async () => {
    database = await createTestDatabase(ANY_ENGINE);
    mailbox = await startMailbox();
    env = { DATABASE_URL: database.url, STORAGE_PATH: storage, LOG_LEVEL: 'silent', MAIL_URL: mailbox.url };
  });
  afterAll(async () => {
    await mailbox?.close();
    await database?.drop();
    rmSync(storage, { recursive: true, force: true });
  });

  it('user:create mails a verification link unless --verified; user:reset-link prints a working link', async () => {
    const created = await tollgate(
      ['user:create', '--email', 'ada@example.com', '--password', 'correct horse'],
      env,
    );
    expect(created.code, created.stderr).toBe(0);
    expect(created.stdout).toContain('A verification link is on its way.');
    const mail = await mailbox.waitFor('ada@example.com');
    expect(mail.text).toMatch(/\/email\/verification\?token=[\w-]{43}/);

    const verified = await tollgate(
      ['user:create', '--email', 'bob@example.com', '--password', 'correct horse', '--verified'],
      env,
    );
    expect(verified.code, verified.stderr).toBe(0);
    expect(verified.stdout).not.toContain('verification link');

    const link = await tollgate(['user:reset-link', '--email', 'ada@example.com'], env);
    expect(link.code, link.stderr).toBe(0);
    expect(link.stdout).toMatch(/\/reset-password\?token=[\w-]{43}\n\(works once, for 60 minutes\)/);
    const unknown = await tollgate(['user:reset-link', '--email', 'nobody@example.com'], env);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain('No user with the e-mail nobody@example.com.');
    await new Promise((r) => setTimeout(r, 300));
    expect(mailbox.to('bob@example.com')).toEqual([]);
  }, 60_000);
});
