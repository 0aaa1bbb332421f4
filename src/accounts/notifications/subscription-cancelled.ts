import { SubscriptionCancelled } from '../../billing/subscriptions/subscription-lifecycle.js';
import { accountsPaths, day, planName } from './billing-facts.js';
import { noticeMail } from './notice-mail.js';
import { defineNotification } from './notification.js';

export interface SubscriptionCancelledData {
  name: string;
  plan: string;
  /** Access ends now (`ended`) or at the end of the period already paid for. */
  ended: boolean;
  endsOn: string;
  by: 'user' | 'provider';
  link: string;
}

export const subscriptionCancelledMail = noticeMail<SubscriptionCancelledData>({
  name: 'subscription-cancelled',
  subject: (d, ctx) =>
    d.ended ? `Your ${ctx.appName} subscription has ended` : `Your ${ctx.appName} subscription is cancelled`,
  paragraphs: (d) => [
    `Hello ${d.name},`,
    d.by === 'provider'
      ? `Your ${d.plan} subscription has ended: its payment could not be collected, or its term ran out.`
      : `Your ${d.plan} subscription is cancelled, as you asked.`,
    d.ended
      ? 'Your access to the plan has ended. You can subscribe again at any time.'
      : `You keep the plan until ${d.endsOn}; until then you can resume it from your billing page.`,
  ],
  action: (d) => ({ label: 'Your billing page', url: d.link }),
});

/** A subscription cancelled by its owner or ended by the provider (once per subscription). */
export const subscriptionCancelledNotification = defineNotification({
  kind: 'subscription-cancelled',
  event: SubscriptionCancelled,
  template: subscriptionCancelledMail,
  async deliver({ userId, subscriptionId, plan, endsAt, by }, notice) {
    const user = await notice.user(userId);
    if (!user) return;
    await notice.send({
      key: `subscription-cancelled:${subscriptionId}`,
      userId: user.id,
      to: user.email,
      data: {
        name: user.name,
        plan: planName(notice.container, plan),
        ended: Date.parse(endsAt) <= notice.now.getTime(),
        endsOn: day(endsAt),
        by,
        link: notice.mail.url(accountsPaths(notice.container).billingPath),
      },
    });
  },
});
