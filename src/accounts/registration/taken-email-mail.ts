import { html } from 'hono/html';
import { defineMail } from '../../mail/template.js';

export interface TakenEmailData {
  name: string;
  loginLink: string;
  resetLink: string;
}

/**
 * To the owner of an address someone tried to sign up with: the sign-up page answered as for a new
 * address, so this mail is where its owner learns of it (and the way back in if it was them).
 */
export const takenEmailMail = defineMail<TakenEmailData>({
  name: 'registration-taken-email',
  subject: (_, ctx) => `Someone tried to register with your address at ${ctx.appName}`,
  text: (d, ctx) =>
    `Hello ${d.name},\n\nSomeone tried to create an account at ${ctx.appName} with this address, which already has one: yours. ` +
    `No new account was created.\n\nIf it was you, log in here:\n\n${d.loginLink}\n\n` +
    `Forgot your password? Choose a new one here:\n\n${d.resetLink}\n\nIf it was not you, ignore this mail: nothing changed.`,
  html: (d, ctx) => html`<p>Hello ${d.name},</p>
<p>Someone tried to create an account at ${ctx.appName} with this address, which already has one: yours. No new account was created.</p>
<p><a href="${d.loginLink}" style="display:inline-block;padding:10px 16px;background:#2563eb;color:#fff;border-radius:6px;text-decoration:none">Log in</a></p>
<p>Forgot your password? <a href="${d.resetLink}">Choose a new one</a>.</p>
<p style="font-size:13px;color:#52525b">If it was not you, ignore this mail: nothing changed.</p>`,
});
