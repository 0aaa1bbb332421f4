import { html, raw } from 'hono/html';

/** What every template may use: the product's name and links under `APP_URL`. */
export interface MailContext {
  appName: string;
  appUrl: string;
  /** An absolute link under `APP_URL`: `url('/login')`. */
  url(path: string): string;
}

type HtmlPart = string | Promise<string>;

/**
 * A mail: its subject, a plain-text body and an HTML body (Hono's escaping `html` template), each
 * from the data the sender passes. The layout adds the product's name and a link to `APP_URL`.
 * @example
 * const welcome = defineMail<{ name: string }>({
 *   name: 'welcome',
 *   subject: (d, ctx) => `Welcome to ${ctx.appName}`,
 *   text: (d, ctx) => `Hello ${d.name},\n\nSign in at ${ctx.url('/login')}.`,
 *   html: (d, ctx) => html`<p>Hello ${d.name},</p><p><a href="${ctx.url('/login')}">Sign in</a>.</p>`,
 * });
 */
export interface MailTemplate<D> {
  readonly name: string;
  subject(data: D, ctx: MailContext): string;
  text(data: D, ctx: MailContext): string;
  html(data: D, ctx: MailContext): HtmlPart;
}

export interface RenderedMail {
  kind: string;
  subject: string;
  text: string;
  html: string;
}

/** Declares a template (an identity function that keeps the data type). */
export function defineMail<D>(template: MailTemplate<D>): MailTemplate<D> {
  return template;
}

export function mailContext(appName: string, appUrl: string): MailContext {
  const base = appUrl.replace(/\/+$/, '');
  return { appName, appUrl: base, url: (path) => `${base}${path.startsWith('/') ? '' : '/'}${path}` };
}

export async function renderMail<D>(
  template: MailTemplate<D>,
  data: D,
  ctx: MailContext,
): Promise<RenderedMail> {
  const body = await template.html(data, ctx);
  return {
    kind: template.name,
    subject: template.subject(data, ctx),
    text: `${template.text(data, ctx).trimEnd()}\n\n-- \n${ctx.appName}\n${ctx.appUrl}\n`,
    html: String(await htmlLayout(ctx, template.subject(data, ctx), body)),
  };
}

function htmlLayout(ctx: MailContext, subject: string, body: string) {
  return html`<!DOCTYPE html>
<html lang="en">
<head><meta charset="utf-8"><meta name="viewport" content="width=device-width"><title>${subject}</title></head>
<body style="margin:0;padding:24px;background:#f4f4f5;font-family:system-ui,sans-serif;color:#18181b">
<div style="max-width:560px;margin:0 auto;background:#fff;border-radius:8px;padding:24px">
<p style="font-weight:600;font-size:18px;margin:0 0 16px">${ctx.appName}</p>
${raw(body)}
<p style="margin:24px 0 0;font-size:12px;color:#71717a"><a href="${ctx.appUrl}" style="color:#71717a">${ctx.appUrl}</a></p>
</div>
</body>
</html>`;
}

/** The mail of `tollgate mail:test`: proves the SMTP settings reach a mailbox. */
export const testMail = defineMail<{ sentAt: string }>({
  name: 'mail-test',
  subject: (_, ctx) => `${ctx.appName}: test mail`,
  text: (d, ctx) => `This is a test mail from ${ctx.appName}, sent at ${d.sentAt}.\nYour mail settings work.`,
  html: (d, ctx) =>
    html`<p>This is a test mail from ${ctx.appName}, sent at ${d.sentAt}.</p><p>Your mail settings work.</p>`,
});
