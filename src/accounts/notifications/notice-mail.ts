import { html } from 'hono/html';
import { defineMail, type MailContext, type MailTemplate } from '../../mail/template.js';
import type { RequestOrigin } from '../events.js';

export interface NoticeMailParts<D> {
  name: string;
  subject(data: D, ctx: MailContext): string;
  /** The paragraphs, plain text: the same words in the text part and the HTML part. */
  paragraphs(data: D, ctx: MailContext): string[];
  /** The one thing to do, as a link (a button in the HTML part). */
  action?(data: D, ctx: MailContext): { label: string; url: string } | undefined;
  /** A closing line in small print. */
  footnote?(data: D, ctx: MailContext): string;
}

/** A notification's mail from its words: the text and HTML parts say the same thing. */
export function noticeMail<D>(parts: NoticeMailParts<D>): MailTemplate<D> {
  return defineMail<D>({
    name: parts.name,
    subject: parts.subject,
    text: (d, ctx) => {
      const action = parts.action?.(d, ctx);
      const foot = parts.footnote?.(d, ctx);
      return [
        ...parts.paragraphs(d, ctx),
        ...(action ? [`${action.label}: ${action.url}`] : []),
        ...(foot ? [foot] : []),
      ].join('\n\n');
    },
    html: (d, ctx) => {
      const action = parts.action?.(d, ctx);
      const foot = parts.footnote?.(d, ctx);
      return html`${parts.paragraphs(d, ctx).map((p) => html`<p>${p}</p>\n`)}${
        action
          ? html`<p><a href="${action.url}" style="display:inline-block;padding:10px 16px;background:#2563eb;color:#fff;border-radius:6px;text-decoration:none">${action.label}</a></p>\n`
          : ''
      }${foot ? html`<p style="font-size:13px;color:#52525b">${foot}</p>` : ''}`;
    },
  });
}

/** "on 28 Nov 2026, 09:14 UTC from 203.0.113.7 (Firefox …)": where and when a change came from. */
export function describeOrigin(origin: RequestOrigin, at: Date | string): string {
  const when = new Date(at).toISOString().slice(0, 16).replace('T', ' ');
  const where = [origin.ip && `from ${origin.ip}`, origin.userAgent && `(${origin.userAgent})`].filter(
    Boolean,
  );
  return [`on ${when} UTC`, ...where].join(' ');
}
