import { TrialWillEnd } from '../../billing/subscriptions/subscription-lifecycle.js';
import { accountsPaths, day, planName } from './billing-facts.js';
import { noticeMail } from './notice-mail.js';
import { defineNotification } from './notification.js';

export interface TrialEndingData {
  name: string;
  plan: string;
  trialEndsOn: string;
  link: string;
}

export const trialEndingMail = noticeMail<TrialEndingData>({
  name: 'trial-ending',
  subject: (_, ctx) => `Your ${ctx.appName} trial ends soon`,
  paragraphs: (d) => [
    `Hello ${d.name},`,
    `Your trial of the ${d.plan} plan ends on ${d.trialEndsOn}. After that your card is charged for the plan, unless you cancel before.`,
  ],
  action: (d) => ({ label: 'Review your subscription', url: d.link }),
});

/** A few days before a trial ends (once per subscription). */
export const trialEndingNotification = defineNotification({
  kind: 'trial-ending',
  event: TrialWillEnd,
  template: trialEndingMail,
  async deliver({ userId, subscriptionId, plan, trialEndsAt }, notice) {
    const user = await notice.user(userId);
    if (!user) return;
    await notice.send({
      key: `trial-ending:${subscriptionId}`,
      userId: user.id,
      to: user.email,
      data: {
        name: user.name,
        plan: planName(notice.container, plan),
        trialEndsOn: day(trialEndsAt),
        link: notice.mail.url(accountsPaths(notice.container).billingPath),
      },
    });
  },
});
