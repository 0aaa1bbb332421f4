import type { BillableUser } from '../../billing/billable-user.js';
import { InvoicePaid } from '../../billing/invoices/invoice-paid.js';
import { Invoices } from '../../billing/invoices/invoices.js';
import { accountsPaths } from './billing-facts.js';
import { noticeMail } from './notice-mail.js';
import { defineNotification } from './notification.js';

export interface ReceiptData {
  name: string;
  invoiceId: string;
  total: string;
  date: string;
  link: string;
}

export const receiptMail = noticeMail<ReceiptData>({
  name: 'receipt',
  subject: (d, ctx) => `Your ${ctx.appName} receipt (${d.total})`,
  paragraphs: (d, ctx) => [
    `Hello ${d.name},`,
    `Thank you: we received your payment of ${d.total} on ${d.date}. The invoice (${d.invoiceId}) is attached as a PDF; your past invoices are on your ${ctx.appName} billing page.`,
  ],
  action: (d) => ({ label: 'Your billing page', url: d.link }),
});

/** A receipt for each paid invoice, its PDF attached. */
export const receiptNotification = defineNotification({
  kind: 'receipt',
  event: InvoicePaid,
  template: receiptMail,
  async deliver({ userId, invoiceId }, notice) {
    const user = (await notice.user(userId)) as BillableUser | undefined;
    if (!user) return;
    const invoices = notice.container.make(Invoices);
    const invoice = await invoices.findOrFail(user, invoiceId);
    const pdf = await invoices.download(user, invoiceId);
    await notice.send({
      key: `receipt:${invoiceId}`,
      userId: user.id,
      to: user.email,
      data: {
        name: user.name,
        invoiceId,
        total: invoice.total(),
        date: invoice.date(),
        link: notice.mail.url(accountsPaths(notice.container).billingPath),
      },
      attachments: [
        {
          filename: `invoice-${invoiceId}.pdf`,
          contentType: 'application/pdf',
          content: Buffer.from(await pdf.arrayBuffer()).toString('base64'),
        },
      ],
    });
  },
});
