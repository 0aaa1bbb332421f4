import { html } from 'hono/html';
import { defineMail } from '../../mail/template.js';

export interface ResetPasswordData {
  name: string;
  link: string;
  expiresMinutes: number;
}

/** The reset link, mailed only to addresses that have an account. */
export const resetPasswordMail = defineMail<ResetPasswordData>({
  name: 'reset-password',
  subject: (_, ctx) => `Reset your ${ctx.appName} password`,
  text: (d) =>
    `Hello ${d.name},\n\nSomeone (we hope you) asked to reset your password. Choose a new one here:\n\n${d.link}\n\n` +
    `The link works once, for ${d.expiresMinutes} minutes. If you did not ask, ignore this mail: your password stays as it is.`,
  html: (d) => html`<p>Hello ${d.name},</p>
<p>Someone (we hope you) asked to reset your password.</p>
<p><a href="${d.link}" style="display:inline-block;padding:10px 16px;background:#2563eb;color:#fff;border-radius:6px;text-decoration:none">Choose a new password</a></p>
<p style="font-size:13px;color:#52525b">The link works once, for ${d.expiresMinutes} minutes. If you did not ask, ignore this mail: your password stays as it is.</p>`,
});
