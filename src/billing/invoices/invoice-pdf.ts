import PDFDocument from 'pdfkit';
import type { Invoice } from './invoice.js';
import { drawInvoiceHeader } from './invoice-pdf-header.js';

export interface InvoicePdfOptions {
  /** Who issues the invoice (the seller). Default: `billing.seller.name`, else `app.name`. */
  vendor?: string;
  /** What is sold, shown under the vendor and used in the file name. Default: `app.name`. */
  product?: string;
  /** The seller's address, one entry a line. Default: `billing.seller.address`. */
  address?: string[];
  /** The seller's contact e-mail. Default: `billing.seller.email`. */
  email?: string;
  /** How the customer pays (`Visa ending in 4242`, `PayPal (ann@example.com)`). Default: the method on file. */
  paymentMethod?: string;
  /** Optional extra lines: street, VAT number, phone… (`vatId` defaults to `billing.seller.taxId`) */
  street?: string;
  location?: string;
  phone?: string;
  url?: string;
  vatId?: string;
  /** Who is billed, for the "Bill to" block: name and e-mail, and a tax id and address when given. */
  customer?: { name?: string; email?: string; taxId?: string; address?: string[] };
  /** Uncompressed content streams: readable text in the raw PDF (tests, debugging). */
  compress?: boolean;
}

/**
 * Renders an invoice as a one-page PDF with pdfkit: the seller's letterhead, a PAID / UNPAID / VOID
 * mark, number, date, bill-to, payment method, lines with their period, discount, tax rate, total.
 */
export function renderInvoicePdf(invoice: Invoice, options: InvoicePdfOptions): Promise<Buffer> {
  const doc = new PDFDocument({
    size: 'A4',
    margin: 50,
    compress: options.compress ?? true,
    info: {
      Title: `Invoice ${invoice.number()}`,
      Author: options.vendor ?? '',
      Subject: options.product ?? '',
    },
  });
  const chunks: Buffer[] = [];
  const done = new Promise<Buffer>((resolve, reject) => {
    doc.on('data', (chunk: Buffer) => chunks.push(chunk));
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
  });

  drawInvoiceHeader(doc, invoice, options);
  doc.moveDown().font('Helvetica-Bold').fontSize(14).text('Invoice');
  doc.font('Helvetica').fontSize(11);
  doc.text(`Invoice number: ${invoice.number()}`);
  doc.text(`Date: ${invoice.date()}`);
  doc.text(`Status: ${statusText[invoice.status()]}`);
  if (options.customer?.name || options.customer?.email) {
    doc.text(
      `Bill to: ${[options.customer.name, options.customer.email].filter(Boolean).join(' <')}${options.customer.email && options.customer.name ? '>' : ''}`,
    );
  }
  for (const line of options.customer?.address ?? []) doc.text(`         ${line}`);
  if (options.customer?.taxId) doc.text(`Customer tax id: ${options.customer.taxId}`);
  if (options.paymentMethod) doc.text(`Payment method: ${options.paymentMethod}`);
  doc.moveDown();

  const left = 50;
  const right = doc.page.width - 50;
  const amountX = right - 120;
  const row = (label: string, amount: string, bold = false) => {
    const y = doc.y;
    doc.font(bold ? 'Helvetica-Bold' : 'Helvetica');
    doc.text(label, left, y, { width: amountX - left - 10 });
    const after = doc.y;
    doc.text(amount, amountX, y, { width: 120, align: 'right' });
    doc.y = Math.max(after, doc.y);
    doc.x = left;
  };

  row('Description', 'Amount', true);
  doc.moveTo(left, doc.y).lineTo(right, doc.y).stroke();
  doc.moveDown(0.3);
  for (const line of invoice.lines()) {
    // Stripe's subscription lines already read "3 × Pro (at $29.00 / month)".
    const quantity =
      line.quantity && line.quantity > 1 && !line.description.includes(`${line.quantity} ×`)
        ? ` × ${line.quantity}`
        : '';
    const period = line.period ? ` (${invoice.formatPeriod(line.period)})` : '';
    row(`${line.description}${quantity}${period}`, line.amount);
  }
  doc.moveDown(0.3);
  doc.moveTo(left, doc.y).lineTo(right, doc.y).stroke();
  doc.moveDown(0.3);
  row('Subtotal', invoice.subtotal());
  if (invoice.hasDiscount()) {
    const what = invoice.discountDescription();
    row(what ? `Discount: ${what}` : 'Discount', invoice.discount());
  }
  if (invoice.hasTax()) {
    const pct = invoice.taxPercentage();
    row(pct === null ? 'Tax' : `Tax (${pct}%)`, invoice.tax());
  }
  const balance = invoice.startingBalance();
  if (balance) row('Customer balance applied', balance);
  row('Total', invoice.total(), true);

  doc.end();
  return done;
}

const statusText: Record<ReturnType<Invoice['status']>, string> = {
  paid: 'Paid',
  open: 'Unpaid (due)',
  draft: 'Draft',
  void: 'Void',
  uncollectible: 'Unpaid (payment failed)',
};

/** `Acme Pro`, `2026-01-15` → `acme-pro_2026-01.pdf`. */
export function invoiceFileName(invoice: Invoice, product = 'invoice'): string {
  const date = invoice.dateValue();
  const slug =
    product
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, '-')
      .replace(/^-|-$/g, '') || 'invoice';
  return `${slug}_${date.getUTCFullYear()}-${String(date.getUTCMonth() + 1).padStart(2, '0')}.pdf`;
}

/** The PDF as a download response. */
export async function invoicePdfResponse(invoice: Invoice, options: InvoicePdfOptions): Promise<Response> {
  const pdf = await renderInvoicePdf(invoice, options);
  return new Response(new Uint8Array(pdf), {
    headers: {
      'content-type': 'application/pdf',
      'content-disposition': `attachment; filename="${invoiceFileName(invoice, options.product)}"`,
      'content-length': String(pdf.byteLength),
      'cache-control': 'private, no-store',
    },
  });
}
