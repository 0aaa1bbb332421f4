import { type ConfigSlice, envInt } from '../core/config.js';

export interface MailConfig {
  /**
   * Where mail goes: `smtp://user:pass@host:587` or `smtps://user:pass@host:465` (nodemailer's
   * connection URL). Empty (the default): mail stays in the outbox table, announced in the log and
   * shown at `/dev/mail` outside production, so nothing needs an SMTP server to run.
   */
  url: string;
  /** The sender: `"Tollgate" <no-reply@example.com>` or a bare address. */
  from: string;
  /** The outbox worker: how it polls, how often it retries a mail the server refused. */
  worker: {
    /** Polls the outbox this often (ms); a mail queued in this process wakes it at once. 0: never polls. */
    pollMs: number;
    /** Mails claimed per round. */
    batchSize: number;
    /** Attempts before a mail is marked `failed` (then `tollgate mail:retry`). */
    maxAttempts: number;
    /** Wait after the first failed attempt (s), doubled after each next one, up to `maxBackoffSeconds`. */
    backoffSeconds: number;
    maxBackoffSeconds: number;
    /** A claimed mail whose worker died is claimed again after this long (s). */
    claimSeconds: number;
  };
}

declare module '../core/config.js' {
  interface TollgateConfig {
    mail: MailConfig;
  }
}

export const mailConfig: ConfigSlice<'mail'> = {
  defaults: {
    mail: {
      url: '',
      from: '',
      worker: {
        pollMs: 2_000,
        batchSize: 20,
        maxAttempts: 8,
        backoffSeconds: 30,
        maxBackoffSeconds: 3_600,
        claimSeconds: 120,
      },
    },
  },
  fromEnv: (env) => ({
    mail: {
      url: env.MAIL_URL || undefined,
      from: env.MAIL_FROM || undefined,
      worker: {
        pollMs: envInt(env.MAIL_POLL_MS, 'MAIL_POLL_MS'),
        maxAttempts: envInt(env.MAIL_MAX_ATTEMPTS, 'MAIL_MAX_ATTEMPTS'),
      },
    },
  }),
};

/** The sender when `mail.from` is empty: the product's name at `no-reply@` the APP_URL's host. */
export function senderOf(config: { mail: MailConfig; app: { name: string; url: string } }): string {
  if (config.mail.from) return config.mail.from;
  const host = new URL(config.app.url).hostname;
  const domain = host.includes('.') && !/^[\d.]+$/.test(host) ? host : 'localhost';
  return `"${config.app.name.replace(/["\\]/g, '')}" <no-reply@${domain}>`;
}
