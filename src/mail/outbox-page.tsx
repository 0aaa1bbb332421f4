import type { Context } from 'hono';
import type { FC } from 'hono/jsx';
import { HttpError } from '../core/errors.js';
import { renderPage } from '../views/render.js';
import { Outbox } from './outbox.js';
import type { OutboxRow } from './tables.js';

/**
 * `/dev/mail`: the outbox as a mailbox, for development without an SMTP server. Registered only
 * outside production (it shows every user's links).
 */
export class OutboxPageController {
  static inject = [Outbox] as const;

  constructor(private readonly outbox: Outbox) {}

  async index(c: Context): Promise<Response> {
    const mails = await this.outbox.list({ limit: 100, to: c.req.query('to') || undefined });
    return renderPage(c, { title: 'Outbox' }, <OutboxList mails={mails} />);
  }

  async show(id: string, c: Context): Promise<Response> {
    const mail = await this.find(id);
    return renderPage(c, { title: mail.subject }, <OutboxMail mail={mail} />);
  }

  /** The HTML part as the recipient's mail program would show it. */
  async html(id: string, c: Context): Promise<Response> {
    return c.html((await this.find(id)).html);
  }

  private async find(param: string): Promise<OutboxRow> {
    const id = /^\d{1,15}$/.test(param) ? Number(param) : undefined;
    const mail = id === undefined ? undefined : await this.outbox.find(id);
    if (!mail) throw new HttpError(404, 'No such mail in the outbox.');
    return mail;
  }
}

const OutboxList: FC<{ mails: OutboxRow[] }> = ({ mails }) => (
  <div class="card">
    <h1>Outbox</h1>
    <p>Every mail the service wrote, newest first. This page exists only outside production.</p>
    {mails.length === 0 ? (
      <p>No mail yet.</p>
    ) : (
      <table>
        <thead>
          <tr>
            <th>Sent to</th>
            <th>Subject</th>
            <th>Status</th>
            <th>Queued</th>
          </tr>
        </thead>
        <tbody>
          {mails.map((mail) => (
            <tr>
              <td>{mail.recipient}</td>
              <td>
                <a href={`/dev/mail/${mail.id}`}>{mail.subject}</a>
              </td>
              <td>{mail.status}</td>
              <td>{mail.created_at}</td>
            </tr>
          ))}
        </tbody>
      </table>
    )}
  </div>
);

const OutboxMail: FC<{ mail: OutboxRow }> = ({ mail }) => (
  <div class="card">
    <p>
      <a href="/dev/mail">← Outbox</a>
    </p>
    <h1>{mail.subject}</h1>
    <p>
      To {mail.recipient} · {mail.status} · {mail.attempts} attempt(s) · queued {mail.created_at}
      {mail.last_error ? ` · last error: ${mail.last_error}` : ''}
    </p>
    <p>
      <a href={`/dev/mail/${mail.id}/html`}>Open the HTML part</a>
    </p>
    <pre style="white-space:pre-wrap">
      <LinkedText text={mail.text} />
    </pre>
  </div>
);

/** The text part with its links clickable, so a link in a mail is one click away here too. */
const LinkedText: FC<{ text: string }> = ({ text }) => (
  <>
    {text.split(/(https?:\/\/[^\s<>"]+)/g).map((part, i) => (i % 2 === 1 ? <a href={part}>{part}</a> : part))}
  </>
);
