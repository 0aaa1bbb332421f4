import { PaymentActionRequired } from '../../billing/payments/payment-action-required.js';
import { accountsPaths, money } from './billing-facts.js';
import { noticeMail } from './notice-mail.js';
import { defineNotification } from './notification.js';

export interface PaymentActionRequiredData {
  name: string;
  amount: string;
  /** The payment confirmation page. */
  link: string;
}

export const paymentActionRequiredMail = noticeMail<PaymentActionRequiredData>({
  name: 'payment-action-required',
  subject: (_, ctx) => `Confirm your ${ctx.appName} payment`,
  paragraphs: (d) => [
    `Hello ${d.name},`,
    `Your bank asks you to confirm a payment of ${d.amount} for your subscription (3-D Secure). Until you do, the payment is not made and your subscription may end.`,
  ],
  action: (d) => ({ label: 'Confirm the payment', url: d.link }),
});

/** Cashier's payment notification: the link to confirm an off-session payment (a renewal under 3-D Secure). */
export const paymentActionRequiredNotification = defineNotification({
  kind: 'payment-action-required',
  event: PaymentActionRequired,
  template: paymentActionRequiredMail,
  async deliver({ userId, payment }, notice) {
    const user = await notice.user(userId);
    if (!user) return;
    const path = accountsPaths(notice.container).paymentPath.replace('{id}', encodeURIComponent(payment.id));
    await notice.send({
      key: `payment-action-required:${payment.id}`,
      userId: user.id,
      to: user.email,
      data: {
        name: user.name,
        amount: money(notice.container, payment.amount, payment.currency),
        link: notice.mail.url(path),
      },
    });
  },
});
