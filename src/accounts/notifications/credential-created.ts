import { CredentialCreated } from '../../oauth/events.js';
import { noticeMail } from './notice-mail.js';
import { defineNotification } from './notification.js';

export interface CredentialCreatedData {
  name: string;
  kind: CredentialCreated['kind'];
  credential: string;
  at: string;
}

const WHAT: Record<CredentialCreated['kind'], string> = {
  'personal-access-token': 'personal access token',
  'api-key': 'API key',
  client: 'OAuth client',
};

export const credentialCreatedMail = noticeMail<CredentialCreatedData>({
  name: 'credential-created',
  subject: (d, ctx) => `A new ${WHAT[d.kind]} on your ${ctx.appName} account`,
  paragraphs: (d, ctx) => [
    `Hello ${d.name},`,
    `A new ${WHAT[d.kind]}, "${d.credential}", was created on your ${ctx.appName} account on ${d.at.slice(0, 16).replace('T', ' ')} UTC. It can act for you.`,
    'If you did not create it, revoke it and change your password.',
  ],
  action: (_, ctx) => ({ label: 'Review your credentials', url: ctx.url('/dashboard') }),
});

/** Tells the user a personal access token, an API key or an OAuth client was created for them (a security notice). */
export const credentialCreatedNotification = defineNotification({
  kind: 'credential-created',
  event: CredentialCreated,
  template: credentialCreatedMail,
  async deliver(event, notice) {
    const user = await notice.user(event.userId);
    if (!user) return;
    await notice.send({
      key: `credential-created:${event.kind}:${event.id}`,
      userId: user.id,
      to: user.email,
      data: { name: user.name, kind: event.kind, credential: event.name, at: notice.now.toISOString() },
    });
  },
});
