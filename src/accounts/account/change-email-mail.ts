import { html } from 'hono/html';
import { defineMail } from '../../mail/template.js';
import { linkLifetime } from '../link-lifetime.js';

export interface ChangeEmailData {
  name: string;
  link: string;
  expiresMinutes: number;
}

/** To the new address: the change takes effect when its owner confirms it here. */
export const changeEmailMail = defineMail<ChangeEmailData>({
  name: 'change-email',
  subject: (_, ctx) => `Confirm your new e-mail address for ${ctx.appName}`,
  text: (d, ctx) =>
    `Hello ${d.name},\n\nYou asked to use this address for your ${ctx.appName} account. Confirm it here:\n\n${d.link}\n\n` +
    `The link works once, for ${linkLifetime(d.expiresMinutes)}. Until then your account keeps its old address. If you did not ask, ignore this mail.`,
  html: (d, ctx) => html`<p>Hello ${d.name},</p>
<p>You asked to use this address for your ${ctx.appName} account.</p>
<p><a href="${d.link}" style="display:inline-block;padding:10px 16px;background:#2563eb;color:#fff;border-radius:6px;text-decoration:none">Confirm new e-mail address</a></p>
<p style="font-size:13px;color:#52525b">The link works once, for ${linkLifetime(d.expiresMinutes)}. Until then your account keeps its old address. If you did not ask, ignore this mail.</p>`,
});
