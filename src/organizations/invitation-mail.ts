import { html } from 'hono/html';
import { defineMail } from '../mail/template.js';

export interface InvitationMailData {
  organization: string;
  inviter: string;
  role: string;
  link: string;
  expiresDays: number;
}

const lifetime = (days: number) => (days === 1 ? '1 day' : `${days} days`);

/** The invitation: a link that works once, for the address it was sent to. */
export const invitationMail = defineMail<InvitationMailData>({
  name: 'organization-invitation',
  subject: (d, ctx) => `${d.inviter} invited you to ${d.organization} on ${ctx.appName}`,
  text: (d, ctx) =>
    `${d.inviter} invited you to join ${d.organization} on ${ctx.appName} as ${d.role}.\n\n` +
    `Accept the invitation here:\n\n${d.link}\n\n` +
    `The link works once, for ${lifetime(d.expiresDays)}. If you did not expect it, ignore this mail.`,
  html: (
    d,
    ctx,
  ) => html`<p>${d.inviter} invited you to join <strong>${d.organization}</strong> on ${ctx.appName} as ${d.role}.</p>
<p><a href="${d.link}" style="display:inline-block;padding:10px 16px;background:#2563eb;color:#fff;border-radius:6px;text-decoration:none">Accept the invitation</a></p>
<p style="font-size:13px;color:#52525b">The link works once, for ${lifetime(d.expiresDays)}. If you did not expect it, ignore this mail.</p>`,
});
