/**
 * `tollgate/mail`: mail through an outbox. Register `mailProvider()`, declare templates with
 * `defineMail()`, send with `container.make(Mailer).send(template, to, data)`.
 */

export { html, raw } from 'hono/html';
export type { MailConfig } from './config.js';
export { mailConfig, senderOf } from './config.js';
export type { MailerOptions, SendOptions } from './mailer.js';
export { Mailer } from './mailer.js';
export type { QueuedMail } from './outbox.js';
export { Outbox } from './outbox.js';
export type { OutboxWorkerOptions } from './outbox-worker.js';
export { OutboxWorker } from './outbox-worker.js';
export { mailProvider } from './provider.js';
export type { MailOutboxTable, OutboxRow } from './tables.js';
export type { MailContext, MailTemplate, RenderedMail } from './template.js';
export { defineMail, mailContext, renderMail, testMail } from './template.js';
export type { MailAttachment, MailTransport, OutgoingMail } from './transport.js';
export { MailTransportKey, smtpTransport } from './transport.js';
