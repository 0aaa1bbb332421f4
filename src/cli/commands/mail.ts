import type { Command } from 'commander';
import type { Application } from '../../kernel/application.js';
import { senderOf } from '../../mail/config.js';
import { Mailer } from '../../mail/mailer.js';
import { Outbox } from '../../mail/outbox.js';
import type { OutboxRow } from '../../mail/tables.js';
import { mailContext, renderMail, testMail } from '../../mail/template.js';
import { MailTransportKey } from '../../mail/transport.js';
import { CliError, withApplication } from '../context.js';

const STATUSES = ['held', 'pending', 'sending', 'sent', 'failed'] as const;

function requireMail(app: Application): void {
  if (!app.container.has(Outbox)) throw new CliError('The application does not register mailProvider().');
}

export function register(program: Command): void {
  program
    .command('mail:test')
    .description('Send a test mail straight through MAIL_URL, to check the SMTP settings.')
    .requiredOption('--to <address>', 'where to send it')
    .action((options: { to: string }) =>
      withApplication(async (app) => {
        requireMail(app);
        if (!app.container.has(MailTransportKey))
          throw new CliError('MAIL_URL is not set: mail is kept in the outbox (`tollgate mail:outbox`).');
        const transport = app.container.make(MailTransportKey);
        const ctx = mailContext(app.config.app.name, app.config.app.url);
        const mail = await renderMail(testMail, { sentAt: app.clock.now().toISOString() }, ctx);
        const host = new URL(app.config.app.url).hostname || 'localhost';
        try {
          await transport.send({
            ...mail,
            id: 0,
            from: senderOf(app.config),
            to: options.to,
            messageId: `<${crypto.randomUUID()}@${host}>`,
            attachments: [],
          });
        } catch (err) {
          throw new CliError(`${transport.description} refused the test mail: ${(err as Error).message}`);
        } finally {
          await transport.close?.();
        }
        console.log(`Sent a test mail to ${options.to} through ${transport.description}.`);
      }),
    );

  program
    .command('mail:outbox')
    .description('List the mails in the outbox, newest first (or print one with --id).')
    .option('--status <status>', `only this status: ${STATUSES.join(', ')}`)
    .option('--to <address>', 'only mails to this address')
    .option('--limit <n>', 'how many (default 50)', '50')
    .option('--id <id>', 'print this mail: its headers and text part')
    .option('--json', 'machine-readable output')
    .action((options: { status?: string; to?: string; limit: string; id?: string; json?: boolean }) =>
      withApplication(async (app) => {
        requireMail(app);
        const status = options.status as OutboxRow['status'] | undefined;
        if (status && !STATUSES.includes(status))
          throw new CliError(`--status must be one of ${STATUSES.join(', ')}.`);
        const limit = Number(options.limit);
        if (!Number.isInteger(limit) || limit < 1 || limit > 10_000)
          throw new CliError('--limit must be 1 to 10000.');
        await app.migrate();
        const outbox = app.container.make(Outbox);
        if (options.id !== undefined) {
          const mail = /^\d{1,15}$/.test(options.id) ? await outbox.find(Number(options.id)) : undefined;
          if (!mail) throw new CliError(`No mail ${options.id} in the outbox.`);
          if (options.json) console.log(JSON.stringify(mail, null, 2));
          else console.log(`${summary(mail)}\nSubject: ${mail.subject}\n\n${mail.text}`);
          return;
        }
        const mails = await outbox.list({ status, to: options.to, limit });
        if (options.json)
          console.log(
            JSON.stringify(
              mails.map(({ text, html, attachments, ...row }) => row),
              null,
              2,
            ),
          );
        else if (mails.length === 0) console.log('The outbox is empty.');
        else for (const mail of mails) console.log(`${summary(mail)}  ${mail.subject}`);
      }),
    );

  program
    .command('mail:retry')
    .description('Send failed mails again (all of them, or the ids given; held mails only by id).')
    .argument('[ids...]', 'outbox ids (default: every failed mail)')
    .action((ids: string[]) =>
      withApplication(async (app) => {
        requireMail(app);
        if (ids.some((id) => !/^\d{1,15}$/.test(id))) throw new CliError('Outbox ids are whole numbers.');
        await app.migrate();
        const count = await app.container
          .make(Outbox)
          .retry(app.clock.now(), ids.length ? ids.map(Number) : undefined);
        const mailer = app.container.make(Mailer);
        const sent = await mailer.drain();
        console.log(
          mailer.delivers
            ? `${count} mail(s) due again; ${sent} sent now.`
            : `${count} mail(s) due again; MAIL_URL is not set, so they wait for an instance that has it.`,
        );
      }),
    );
}

function summary(mail: OutboxRow): string {
  const error = mail.last_error ? `  (${mail.last_error.split('\n')[0]})` : '';
  return `#${mail.id}  ${mail.status.padEnd(7)}  ${mail.created_at}  ${mail.kind}  → ${mail.recipient}${error}`;
}
