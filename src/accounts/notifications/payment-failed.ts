import { PaymentFailed } from '../../billing/payments/payment-failed.js';
import { accountsPaths } from './billing-facts.js';
import { noticeMail } from './notice-mail.js';
import { defineNotification } from './notification.js';

export interface PaymentFailedData {
  name: string;
  /** The billing page, where the card is updated. */
  link: string;
}

export const paymentFailedMail = noticeMail<PaymentFailedData>({
  name: 'payment-failed',
  subject: (_, ctx) => `Your ${ctx.appName} payment failed`,
  paragraphs: (d) => [
    `Hello ${d.name},`,
    'We could not charge your card for your subscription: it is past due. We will try again over the next days; if every attempt fails, the subscription ends.',
    'Update your card now to keep it.',
  ],
  action: (d) => ({ label: 'Update your card', url: d.link }),
});

/** Dunning: a declined renewal, with a link to update the card. */
export const paymentFailedNotification = defineNotification({
  kind: 'payment-failed',
  event: PaymentFailed,
  template: paymentFailedMail,
  async deliver({ userId, reference }, notice) {
    const user = await notice.user(userId);
    if (!user) return;
    await notice.send({
      key: `payment-failed:${reference}`,
      userId: user.id,
      to: user.email,
      data: { name: user.name, link: notice.mail.url(accountsPaths(notice.container).billingPath) },
    });
  },
});
