import { createTransport } from 'nodemailer';
import { InjectionKey } from '../core/container.js';
import { ConfigurationError } from '../core/errors.js';

export interface MailAttachment {
  filename: string;
  contentType: string;
  /** The bytes, base64. */
  content: string;
}

/** A mail ready for the wire: rendered, addressed, with its fixed Message-ID. */
export interface OutgoingMail {
  id: number;
  kind: string;
  from: string;
  to: string;
  subject: string;
  text: string;
  html: string;
  messageId: string;
  attachments: MailAttachment[];
}

/**
 * Where the outbox worker hands each mail. `send` resolves once the server accepted it and throws
 * when it did not (the worker retries later). Bind another one to `MailTransportKey` to use an
 * HTTP mail API instead of SMTP.
 */
export interface MailTransport {
  /** Shown by `mail:test` and in logs; never the URL (it holds the password). */
  readonly description: string;
  send(mail: OutgoingMail): Promise<void>;
  close?(): void | Promise<void>;
}

export const MailTransportKey = new InjectionKey<MailTransport>('MailTransport');

/** SMTP through nodemailer, from a `smtp://` or `smtps://` URL. */
export function smtpTransport(url: string): MailTransport {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new ConfigurationError('MAIL_URL is not a URL: expected smtp://user:pass@host:port or smtps://…');
  }
  if (parsed.protocol !== 'smtp:' && parsed.protocol !== 'smtps:') {
    throw new ConfigurationError(`MAIL_URL must start with smtp:// or smtps://, not ${parsed.protocol}//.`);
  }
  const transporter = createTransport(url);
  return {
    description: `${parsed.protocol}//${parsed.host}`,
    async send(mail) {
      await transporter.sendMail({
        from: mail.from,
        to: mail.to,
        subject: mail.subject,
        text: mail.text,
        html: mail.html,
        messageId: mail.messageId,
        attachments: mail.attachments.map((a) => ({
          filename: a.filename,
          contentType: a.contentType,
          content: a.content,
          encoding: 'base64',
        })),
      });
    },
    close: () => transporter.close(),
  };
}
