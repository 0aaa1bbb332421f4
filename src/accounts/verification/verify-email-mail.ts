import { html } from 'hono/html';
import { defineMail } from '../../mail/template.js';
import { linkLifetime } from '../link-lifetime.js';

export interface VerifyEmailData {
  name: string;
  link: string;
  expiresMinutes: number;
}

/** The link that proves an address (and, from a sign-up, signs the new user in). */
export const verifyEmailMail = defineMail<VerifyEmailData>({
  name: 'verify-email',
  subject: (_, ctx) => `Verify your e-mail address for ${ctx.appName}`,
  text: (d, ctx) =>
    `Hello ${d.name},\n\nPlease confirm that this is your e-mail address for ${ctx.appName}:\n\n${d.link}\n\n` +
    `The link works once, for ${linkLifetime(d.expiresMinutes)}. If you did not create an account, ignore this mail.`,
  html: (d, ctx) => html`<p>Hello ${d.name},</p>
<p>Please confirm that this is your e-mail address for ${ctx.appName}.</p>
<p><a href="${d.link}" style="display:inline-block;padding:10px 16px;background:#2563eb;color:#fff;border-radius:6px;text-decoration:none">Verify e-mail address</a></p>
<p style="font-size:13px;color:#52525b">The link works once, for ${linkLifetime(d.expiresMinutes)}. If you did not create an account, ignore this mail.</p>`,
});
