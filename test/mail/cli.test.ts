import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { authProvider } from '../../src/auth/provider.js';
import { defineConfig } from '../../src/config/index.js';
import { createLogger } from '../../src/core/logger.js';
import { Application } from '../../src/kernel/application.js';
import { Mailer } from '../../src/mail/mailer.js';
import { mailProvider } from '../../src/mail/provider.js';
import { testMail } from '../../src/mail/template.js';
import { tollgate } from '../support/cli.js';
import { createTestDatabase, type TestDatabase } from '../support/database.js';
import { ANY_ENGINE } from '../support/engines.js';
import { freePort } from '../support/free-port.js';
import { MAILBOX_PASSWORD, type Mailbox, startMailbox } from '../support/mailbox.js';

describe('tollgate mail:test, mail:outbox, mail:retry', () => {
  let database: TestDatabase;
  let mailbox: Mailbox;
  let env: Record<string, string>;
  const storage = mkdtempSync(join(tmpdir(), 'tollgate-mail-cli-'));

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

  it('mail:test sends straight through MAIL_URL, and says why when the server is not there', async () => {
    const sent = await tollgate(['mail:test', '--to', 'ops@example.com'], env);
    expect(sent.code, sent.stderr).toBe(0);
    expect(sent.stdout).toContain(
      `Sent a test mail to ops@example.com through smtp://127.0.0.1:${mailbox.port}`,
    );
    const mail = await mailbox.waitFor('ops@example.com');
    expect(mail.subject).toBe('Tollgate: test mail');
    expect(mail.html).toContain('Your mail settings work.');

    const port = await freePort();
    const down = await tollgate(['mail:test', '--to', 'ops@example.com'], {
      ...env,
      MAIL_URL: `smtp://tollgate:${MAILBOX_PASSWORD}@127.0.0.1:${port}`,
    });
    expect(down.code).toBe(1);
    expect(down.stderr).toContain(`smtp://127.0.0.1:${port} refused the test mail`);
    expect(down.stderr).not.toContain(MAILBOX_PASSWORD);
    expect(down.stderr).not.toMatch(/\n\s+at /);
  }, 60_000);

  it('mail:outbox lists held mail and mail:retry sends it through MAIL_URL', async () => {
    // A mail written where no MAIL_URL was set: held in the outbox.
    const app = await Application.create(
      defineConfig({ app: { env: 'test' }, storagePath: storage, database: { url: database.url } }),
      { logger: createLogger('silent'), providers: [authProvider(), mailProvider()] },
    );
    let id: number;
    try {
      await app.migrate();
      id = await app.container.make(Mailer).send(testMail, 'held@example.com', { sentAt: 'then' });
    } finally {
      await app.close();
    }
    const listed = await tollgate(['mail:outbox', '--status', 'held'], env);
    expect(listed.code, listed.stderr).toBe(0);
    expect(listed.stdout).toMatch(new RegExp(`#${id}\\s+held\\s+.*mail-test\\s+→ held@example.com`));
    const one = await tollgate(['mail:outbox', '--id', String(id)], env);
    expect(one.stdout).toContain('This is a test mail from Tollgate, sent at then.');
    const bad = await tollgate(['mail:outbox', '--status', 'lost'], env);
    expect(bad.code).toBe(1);
    expect(bad.stderr).toContain('--status must be one of');

    const retried = await tollgate(['mail:retry', String(id)], env);
    expect(retried.code, retried.stderr).toBe(0);
    expect(retried.stdout).toContain('1 mail(s) due again; 1 sent now.');
    await mailbox.waitFor('held@example.com');
    const after = await tollgate(['mail:outbox', '--to', 'held@example.com', '--json'], env);
    expect(JSON.parse(after.stdout)).toMatchObject([{ id, status: 'sent', recipient: 'held@example.com' }]);
  }, 60_000);
});
