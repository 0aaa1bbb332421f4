import type { Application, ServiceProvider } from '../kernel/application.js';
import { senderOf } from './config.js';
import { countMail } from './count-mail.js';
import { Mailer } from './mailer.js';
import { mailMigrations } from './migrations.js';
import { Outbox } from './outbox.js';
import { OutboxPageController } from './outbox-page.js';
import { OutboxWorker } from './outbox-worker.js';
import { mailContext } from './template.js';
import { MailTransportKey, smtpTransport } from './transport.js';

/**
 * Mail through an outbox table (`config.mail`): `MAIL_URL` names the SMTP server; without it mail
 * is held in the outbox, logged, and shown at `/dev/mail` outside production. Bind your own
 * `MailTransportKey` to send another way. Each instance runs a worker that drains the outbox.
 */
export function mailProvider(): ServiceProvider {
  return {
    name: 'mail',
    migrations: [mailMigrations],

    register(app: Application) {
      const { container, config, router } = app;
      if (config.mail.url) container.instance(MailTransportKey, smtpTransport(config.mail.url));
      container.instance(Outbox, new Outbox(app.db));
      container.singleton(Mailer, () => createMailer(app));
      if (config.app.env === 'production') return;
      router.controllers.register(OutboxPageController, 'Mail/OutboxPageController');
      router.group({ prefix: '/dev/mail', middleware: ['web'] }, (dev) => {
        dev.get('/', [OutboxPageController, 'index']).name('mail.outbox');
        dev.get('/{id}', [OutboxPageController, 'show']).name('mail.outbox.show');
        dev.get('/{id}/html', [OutboxPageController, 'html']).name('mail.outbox.html');
      });
    },

    boot(app: Application) {
      const mailer = app.container.make(Mailer);
      if (!mailer.delivers && app.config.app.env === 'production') {
        app.logger.warn('MAIL_URL is not set: mail is kept in the outbox table (`tollgate mail:outbox`)');
      }
    },
  };
}

/** The mailer, with a worker when a transport is bound (started here, stopped on close). */
function createMailer(app: Application): Mailer {
  const { container, config, clock, logger } = app;
  const context = mailContext(config.app.name, config.app.url);
  const outbox = container.make(Outbox);
  let worker: OutboxWorker | undefined;
  if (container.has(MailTransportKey)) {
    const transport = container.make(MailTransportKey);
    worker = new OutboxWorker({
      outbox,
      transport,
      from: senderOf(config),
      clock,
      logger,
      config: config.mail.worker,
    });
    worker.start();
    app.onClose(async () => {
      await worker?.stop();
      await transport.close?.();
    });
  }
  countMail(app, outbox, worker);
  const heldAt = (id: number) =>
    config.app.env === 'production' ? `tollgate mail:outbox --id ${id}` : context.url(`/dev/mail/${id}`);
  return new Mailer({ outbox, worker, context, clock, logger, heldAt });
}
