import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { authProvider } from '../../src/auth/provider.js';
import { createLogger } from '../../src/core/logger.js';
import { Application } from '../../src/kernel/application.js';
import { defineMail, html } from '../../src/mail/index.js';
import { Mailer } from '../../src/mail/mailer.js';
import { Outbox } from '../../src/mail/outbox.js';
import { mailProvider } from '../../src/mail/provider.js';
import { createTestApp, type TestApp } from '../support/app.js';
import { ENGINES } from '../support/engines.js';
import { freePort } from '../support/free-port.js';
import { type Mailbox, startMailbox } from '../support/mailbox.js';

const hello = defineMail<{ name: string; link: string }>({
  name: 'hello',
  subject: (d) => `Hello ${d.name}`,
  text: (d) => `Hello ${d.name}, follow ${d.link}`,
  html: (d) => html`<p>Hello ${d.name}, <a href="${d.link}">follow</a></p>`,
});

/** Polling off: each test drains when it means to, so nothing races the assertions. */
const worker = { pollMs: 0 };

describe.each(ENGINES)('mail through the outbox, to a real SMTP server (%s)', (engine) => {
  let mailbox: Mailbox;
  let t: TestApp;
  let mailer: Mailer;

  beforeAll(async () => {
    mailbox = await startMailbox();
    t = await createTestApp({
      engine,
      config: {
        app: { name: 'Acme', url: 'https://acme.test' },
        mail: { url: mailbox.url, from: 'Acme <no-reply@acme.test>', worker },
      },
      providers: [authProvider(), mailProvider()],
    });
    mailer = t.app.container.make(Mailer);
  });
  afterAll(async () => {
    await t?.close();
    await mailbox?.close();
  });

  it('sends a text and an HTML part from one template, with the product name and APP_URL', async () => {
    await mailer.send(hello, 'ada@example.com', { name: '<Ada>', link: 'https://acme.test/x?a=1' });
    await mailer.drain();
    const mail = await mailbox.waitFor('ada@example.com');
    expect(mail.subject).toBe('Hello <Ada>');
    expect(mail.from?.value).toEqual([{ name: 'Acme', address: 'no-reply@acme.test' }]);
    expect(mail.text).toContain('Hello <Ada>, follow https://acme.test/x?a=1');
    expect(mail.text).toContain('https://acme.test');
    expect(mail.html).toContain('Hello &lt;Ada&gt;');
    expect(mail.html).toContain('href="https://acme.test/x?a=1"');
    expect(mail.html).toContain('>Acme<');
    expect(mail.messageId).toMatch(/@acme\.test>$/);
    const [row] = await t.app.container.make(Outbox).list({ to: 'ada@example.com' });
    expect(row).toMatchObject({ status: 'sent', attempts: 1 });
  });

  it('sends a mail queued in a transaction only when that transaction commits', async () => {
    await t.app.db
      .transaction()
      .execute(async (trx) => {
        await mailer.send(hello, 'rolled@example.com', { name: 'R', link: 'https://acme.test' }, { db: trx });
        throw new Error('roll back');
      })
      .catch(() => {});
    await t.app.db.transaction().execute(async (trx) => {
      await mailer.send(
        hello,
        'committed@example.com',
        { name: 'C', link: 'https://acme.test' },
        { db: trx },
      );
    });
    await mailer.drain();
    await mailbox.waitFor('committed@example.com');
    expect(mailbox.to('rolled@example.com')).toEqual([]);
  });

  it('attaches files', async () => {
    const pdf = Buffer.from('%PDF-1.4 fake').toString('base64');
    await mailer.send(
      hello,
      'receipt@example.com',
      { name: 'R', link: 'https://acme.test' },
      {
        attachments: [{ filename: 'invoice.pdf', contentType: 'application/pdf', content: pdf }],
      },
    );
    await mailer.drain();
    const mail = await mailbox.waitFor('receipt@example.com');
    expect(mail.attachments.map((a) => [a.filename, a.contentType, a.content.toString()])).toEqual([
      ['invoice.pdf', 'application/pdf', '%PDF-1.4 fake'],
    ]);
  });

  it('retries a refused mail with a growing wait, marks it failed after the last attempt, and retries on request', async () => {
    const outbox = t.app.container.make(Outbox);
    mailbox.refuseNext(100);
    const id = await mailer.send(hello, 'refused@example.com', { name: 'X', link: 'https://acme.test' });
    await mailer.drain();
    let row = await outbox.find(id);
    expect(row).toMatchObject({ status: 'pending', attempts: 1 });
    expect(row!.last_error).toContain('451');
    // Not due before its wait (30 s after the first refusal, 60 s after the second, …).
    t.clock.advance(29_000);
    await mailer.drain();
    expect((await outbox.find(id))!.attempts).toBe(1);
    for (let attempt = 2; attempt <= 8; attempt++) {
      t.clock.advance(3_600_000);
      await mailer.drain();
      expect((await outbox.find(id))!.attempts).toBe(attempt);
    }
    row = await outbox.find(id);
    expect(row!.status).toBe('failed');
    mailbox.refuseNext(0);
    expect(await outbox.retry(t.clock.now(), [id])).toBe(1);
    await mailer.drain();
    await mailbox.waitFor('refused@example.com');
    expect((await outbox.find(id))!.status).toBe('sent');
    expect(mailbox.to('refused@example.com')).toHaveLength(1);
  });

  it('two instances draining at once send each mail once', async () => {
    const second = await Application.create(t.app.config, {
      clock: t.clock,
      logger: createLogger('silent'),
      providers: [authProvider(), mailProvider()],
    });
    await second.boot();
    try {
      const recipients = Array.from({ length: 30 }, (_, i) => `crowd${i}@example.com`);
      for (const to of recipients) await mailer.send(hello, to, { name: to, link: 'https://acme.test' });
      const [a, b] = await Promise.all([mailer.drain(), second.container.make(Mailer).drain()]);
      expect(a + b).toBe(30);
      await Promise.all([mailer.drain(), second.container.make(Mailer).drain()]);
      expect(recipients.map((to) => mailbox.to(to).length)).toEqual(recipients.map(() => 1));
    } finally {
      await second.close();
    }
  }, 60_000);
});

describe.each(ENGINES)('a mail server that is down (%s)', (engine) => {
  it('keeps the request fast, retries later, and sends the mail once', async () => {
    const port = await freePort();
    const t = await createTestApp({
      engine,
      config: { mail: { url: `smtp://tollgate:mailbox-secret@127.0.0.1:${port}`, worker } },
      providers: [authProvider(), mailProvider()],
    });
    let mailbox: Mailbox | undefined;
    try {
      const mailer = t.app.container.make(Mailer);
      const outbox = t.app.container.make(Outbox);
      const id = await mailer.send(hello, 'later@example.com', { name: 'L', link: 'https://x.test' });
      expect(await mailer.drain()).toBe(0);
      expect(await outbox.find(id)).toMatchObject({ status: 'pending', attempts: 1 });
      expect((await outbox.find(id))!.last_error).toMatch(/ECONNREFUSED/);
      mailbox = await startMailbox(port);
      t.clock.advance(30_000);
      expect(await mailer.drain()).toBe(1);
      t.clock.advance(3_600_000);
      expect(await mailer.drain()).toBe(0);
      await mailbox.waitFor('later@example.com');
      expect(mailbox.received).toHaveLength(1);
    } finally {
      await t.close();
      await mailbox?.close();
    }
  }, 60_000);
});

describe.each(ENGINES)('with no MAIL_URL (%s)', (engine) => {
  it('holds mail in the outbox, logs where to read it without its content, and shows it at /dev/mail', async () => {
    const lines: string[] = [];
    const sink = new Writable({
      write(chunk, _enc, done) {
        lines.push(String(chunk));
        done();
      },
    });
    const t = await createTestApp({
      engine,
      config: { app: { env: 'development', url: 'http://localhost' } },
      providers: [authProvider(), mailProvider()],
      logger: createLogger('info', sink),
    });
    try {
      const mailer = t.app.container.make(Mailer);
      const secret = 'https://localhost/verify?signature=s3cr3t';
      const id = await mailer.send(hello, 'dev@example.com', { name: 'Dev', link: secret });
      expect(mailer.delivers).toBe(false);
      expect(await t.app.container.make(Outbox).find(id)).toMatchObject({ status: 'held' });
      const log = lines.join('');
      expect(log).toContain('Mail kept in the outbox');
      expect(log).toContain(`http://localhost/dev/mail/${id}`);
      expect(log).not.toContain('s3cr3t');

      const list = await t.request('/dev/mail');
      expect(list.status).toBe(200);
      expect(await list.text()).toContain('Hello Dev');
      const show = await (await t.request(`/dev/mail/${id}`)).text();
      expect(show).toContain(`<a href="${secret}">${secret}</a>`);
      const part = await t.request(`/dev/mail/${id}/html`);
      expect(await part.text()).toContain(`href="${secret}"`);
      expect((await t.request('/dev/mail/999999')).status).toBe(404);
      expect((await t.request('/dev/mail/abc')).status).toBe(404);
    } finally {
      await t.close();
    }
  });

  it('has no outbox page in production', async () => {
    const t = await createTestApp({
      engine,
      config: {
        app: { env: 'production', url: 'http://localhost', key: Buffer.alloc(32, 7).toString('base64') },
      },
      providers: [authProvider(), mailProvider()],
    });
    try {
      await t.app.container
        .make(Mailer)
        .send(hello, 'prod@example.com', { name: 'P', link: 'https://x.test' });
      expect((await t.request('/dev/mail')).status).toBe(404);
      expect((await t.request('/dev/mail/1')).status).toBe(404);
    } finally {
      await t.close();
    }
  });
});
