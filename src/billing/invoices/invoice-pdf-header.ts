import type { Invoice } from './invoice.js';
import type { InvoicePdfOptions } from './invoice-pdf.js';

type Doc = PDFKit.PDFDocument;

/** The stamp in the top right corner: what the customer looks for first. */
export function invoiceMark(invoice: Invoice): { text: 'PAID' | 'VOID' | 'UNPAID'; color: string } {
  const status = invoice.status();
  if (status === 'paid') return { text: 'PAID', color: '#1a7f37' };
  if (status === 'void') return { text: 'VOID', color: '#6e7781' };
  return { text: 'UNPAID', color: '#cf222e' };
}

/** The seller's letterhead (name, product, address, tax id, contact) and the status mark beside it. */
export function drawInvoiceHeader(doc: Doc, invoice: Invoice, options: InvoicePdfOptions): void {
  const top = doc.y;
  const right = doc.page.width - 50;
  const mark = invoiceMark(invoice);
  doc.save();
  doc.font('Helvetica-Bold').fontSize(22).fillColor(mark.color).strokeColor(mark.color).lineWidth(2);
  const width = doc.widthOfString(mark.text) + 20;
  doc.roundedRect(right - width, top, width, 34, 4).stroke();
  doc.text(mark.text, right - width, top + 8, { width, align: 'center', lineBreak: false });
  doc.restore();

  doc.x = 50;
  doc.y = top;
  const textWidth = right - 50 - width - 20;
  doc
    .font('Helvetica-Bold')
    .fontSize(20)
    .fillColor('#000')
    .text(options.vendor ?? '', { width: textWidth });
  doc.font('Helvetica').fontSize(11).fillColor('#555');
  if (options.product && options.product !== options.vendor) doc.text(options.product, { width: textWidth });
  const lines = [
    ...(options.address ?? []),
    options.street,
    options.location,
    options.phone,
    options.email,
    options.url,
    options.vatId,
  ];
  for (const line of lines) {
    if (line) doc.text(line, { width: textWidth });
  }
  doc.fillColor('#000');
}
