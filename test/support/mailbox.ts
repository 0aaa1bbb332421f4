import type { AddressInfo } from 'node:net';
import { type ParsedMail, simpleParser } from 'mailparser';
import { SMTPServer } from 'smtp-server';

export interface Mailbox {
  /** `smtp://user:secret@127.0.0.1:<port>`: what MAIL_URL is set to. */
  url: string;
  port: number;
  /** Every mail the server accepted, parsed, in arrival order. */
  received: ParsedMail[];
  /** Answers `451` to the next `count` mails (a server that is up but refuses for now). */
  refuseNext(count: number): void;
  /** The first received mail to `to` matching `match`, waiting for it to arrive. */
  waitFor(to: string, match?: (mail: ParsedMail) => boolean, timeoutMs?: number): Promise<ParsedMail>;
  to(address: string): ParsedMail[];
  close(): Promise<void>;
}

export const MAILBOX_USER = 'tollgate';
export const MAILBOX_PASSWORD = 'mailbox-secret';

/**
 * A real SMTP server in process (smtp-server, parsed with mailparser) that requires the password
 * in its URL, on `port` (default: a free one).
 */
export async function startMailbox(port = 0): Promise<Mailbox> {
  const received: ParsedMail[] = [];
  let refusals = 0;
  const server = new SMTPServer({
    disabledCommands: ['STARTTLS'],
    allowInsecureAuth: true,
    logger: false,
    onAuth(auth, _session, callback) {
      if (auth.username === MAILBOX_USER && auth.password === MAILBOX_PASSWORD)
        callback(null, { user: auth.username });
      else callback(new Error('Invalid username or password'));
    },
    onData(stream, _session, callback) {
      simpleParser(stream)
        .then((mail) => {
          if (refusals > 0) {
            refusals--;
            const err = new Error('Try again later') as Error & { responseCode: number };
            err.responseCode = 451;
            return callback(err);
          }
          received.push(mail);
          callback();
        })
        .catch(callback);
    },
  });
  await new Promise<void>((resolve, reject) => {
    server.on('error', reject);
    server.listen(port, '127.0.0.1', () => resolve());
  });
  const bound = (server.server.address() as AddressInfo).port;
  const to = (address: string) =>
    received.filter((mail) => [mail.to].flat().some((a) => a?.value.some((v) => v.address === address)));
  return {
    url: `smtp://${MAILBOX_USER}:${MAILBOX_PASSWORD}@127.0.0.1:${bound}`,
    port: bound,
    received,
    refuseNext: (count) => {
      refusals = count;
    },
    to,
    async waitFor(address, match = () => true, timeoutMs = 20_000) {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const mail = to(address).find(match);
        if (mail) return mail;
        if (Date.now() > deadline) throw new Error(`No mail to ${address} arrived within ${timeoutMs} ms.`);
        await new Promise((r) => setTimeout(r, 25));
      }
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
