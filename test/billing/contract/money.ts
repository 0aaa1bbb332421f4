import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { ContractContext } from './context.js';

/** Tax, cards, one-off charges, invoices and PDFs. */
export function moneyCases(ctx: ContractContext): void {
  const { harness, newUser, reload, customerId, localRows, expectBillingError, paidAmounts } = ctx;
  const { plans, tokens } = ctx.harness;
  describe('tax', () => {
    it('taxPercentage() applies to subscription charges and appears on the invoice', async () => {
      ctx.setTax(10);
      const user = await newUser();
      await user.newSubscription('main', plans.monthly.id).create(tokens.card);
      const withTax = Math.round(harness.monthlyMinor * 1.1);
      expect(await paidAmounts(await reload(user))).toEqual([withTax]);
      const [invoice] = await user.invoices();
      expect(invoice?.hasTax()).toBe(true);
      expect(invoice?.rawTotal()).toBe(withTax);
      expect(invoice?.taxPercentage()).toBe(10);
    });

    it('one-off charges carry no tax', async () => {
      ctx.setTax(10);
      const user = await newUser();
      await user.updateCard(tokens.card);
      await user.charge(harness.toEditionAmount(500));
      expect(await paidAmounts(await reload(user))).toEqual([500]);
    });

    it.each([101, -1, 10.125, Number.NaN])(
      'taxPercentage() = %s is refused before the provider is called',
      async (bad) => {
        ctx.setTax(bad);
        const user = await newUser();
        await expectBillingError(
          user.newSubscription('main', plans.monthly.id).create(tokens.card),
          'invalid_tax_percentage',
        );
        expect(customerId(await reload(user))).toBeFalsy();
        expect(await localRows(user)).toEqual([]);
      },
    );
  });

  describe('cards and one-off charges', () => {
    it('updateCard(token) makes the new card the default and stores its brand and last four', async () => {
      const user = await newUser();
      await user.newSubscription('main', plans.monthly.id).create(tokens.card);
      await user.updateCard(tokens.otherCard);
      const fresh = await reload(user);
      expect(fresh.card_brand).toBe(harness.cardOf.otherCard.brand);
      expect(fresh.card_last_four).toBe(harness.cardOf.otherCard.lastFour);
      expect(fresh.hasCardOnFile()).toBe(true);
    });

    it('charge(amount, options) returns the full provider response', async () => {
      const user = await newUser();
      await user.updateCard(tokens.card);
      // Option names are the provider's own, so the shared suite passes none (editions test theirs).
      const response = await user.charge(harness.toEditionAmount(1234));
      expect(response.id).toBeTruthy();
      expect(Object.keys(response).length).toBeGreaterThan(5);
      expect(await paidAmounts(await reload(user))).toEqual([1234]);
    });

    it('a declined one-off charge throws card_declined carrying the provider message and code', async () => {
      const user = await newUser();
      await user.updateCard(tokens.failsLater);
      const err = await expectBillingError(user.charge(harness.toEditionAmount(1500)), 'card_declined');
      expect(err.message).toMatch(/declin/i);
      expect(err.providerCode).toBeTruthy();
      expect(err.status).toBe(402);
    });

    it('refuses amounts that are not valid in the edition unit', async () => {
      const user = await newUser();
      await user.updateCard(tokens.card);
      await expectBillingError(user.charge(0), 'invalid_amount');
      await expectBillingError(user.charge(-5), 'invalid_amount');
      if (harness.capabilities.amountUnit === 'minor')
        await expectBillingError(user.charge(10.5), 'invalid_amount');
    });
  });

  describe('invoices', () => {
    it('invoiceFor bills at once with an invoice; invoices() lists it, formatted for display', async () => {
      const user = await newUser();
      await user.updateCard(tokens.card);
      const invoice = await user.invoiceFor('Setup fee', harness.toEditionAmount(4999));
      expect(invoice.total()).toBe('$49.99');
      expect(invoice.paid()).toBe(true);
      expect(invoice.date()).toMatch(/^[A-Z][a-z]{2} \d{1,2}, \d{4}$/);
      expect(invoice.lines().map((l) => l.description)).toContain('Setup fee');
      const listed = await user.invoices();
      expect(listed.map((i) => i.id)).toContain(invoice.id);
      expect((await user.findInvoice(invoice.id))?.total()).toBe('$49.99');
    });

    it('a failed invoiceFor throws card_declined and lists no paid invoice for it', async () => {
      const user = await newUser();
      await user.updateCard(tokens.failsLater);
      await expectBillingError(user.invoiceFor('Consulting', harness.toEditionAmount(2000)), 'card_declined');
      expect(await user.invoices()).toEqual([]);
      expect(await paidAmounts(await reload(user))).toEqual([]);
    });

    it("another user's invoice is never found", async () => {
      const owner = await newUser();
      await owner.updateCard(tokens.card);
      const invoice = await owner.invoiceFor('Private', harness.toEditionAmount(700));
      const other = await newUser();
      await other.updateCard(tokens.card);
      expect(await other.findInvoice(invoice.id)).toBeUndefined();
      await expectBillingError(
        other.downloadInvoice(invoice.id, { vendor: 'V', product: 'P' }),
        'invoice_not_found',
      );
    });

    it('downloadInvoice returns a PDF with vendor, product, date, lines, discount, tax and total', async () => {
      ctx.setTax(8.25);
      const user = await newUser();
      const sub = await user
        .newSubscription('main', plans.monthly.id)
        .withCoupon(harness.coupon.id)
        .create(tokens.card);
      expect(sub.valid()).toBe(true);
      const [invoice] = await user.invoices();
      const response = await user.downloadInvoice(invoice!.id, {
        vendor: 'Tollgate Inc.',
        product: 'Tollgate Pro',
      });
      expect(response.headers.get('content-type')).toBe('application/pdf');
      expect(response.headers.get('content-disposition')).toMatch(
        /^attachment; filename="tollgate-pro_\d{4}-\d{2}\.pdf"$/,
      );
      const bytes = Buffer.from(await response.arrayBuffer());
      expect(bytes.subarray(0, 5).toString()).toBe('%PDF-');
      const text = pdfText(bytes);
      for (const expected of [
        'Tollgate Inc.',
        'Tollgate Pro',
        invoice!.date(),
        invoice!.total(),
        invoice!.tax(),
        invoice!.discount(),
      ]) {
        expect(text).toContain(expected);
      }
      expect(text).toContain('8.25%');
    });

    it('a paid invoice PDF carries the PAID mark, the configured seller, the card, the period and the tax rate', async () => {
      ctx.setTax(10);
      const user = await newUser();
      await user.newSubscription('main', plans.monthly.id).create(tokens.card);
      const [invoice] = await user.invoices();
      const line = invoice!.subscriptionLines()[0]!;
      expect(line.period).not.toBeNull();
      const pdf = Buffer.from(await (await user.downloadInvoice(invoice!.id)).arrayBuffer());
      if (process.env.INVOICE_PDF_OUT)
        writeFileSync(`${process.env.INVOICE_PDF_OUT}-${harness.edition}.pdf`, pdf);
      const text = pdfText(pdf);
      const card = harness.cardOf.card;
      for (const expected of [
        'PAID',
        'Status: Paid',
        'Tollgate Inc.',
        '1 Market Street',
        'San Francisco, CA 94105',
        'VAT: US-123456789',
        'billing@tollgate.test',
        `Payment method: ${card.brand} ending in ${card.lastFour}`,
        `Bill to: ${user.name} <${user.email}>`,
        invoice!.formatPeriod(line.period!),
        'Tax (10%)',
      ]) {
        expect(text).toContain(expected);
      }
      expect(text).not.toContain('UNPAID');
    });

    it('an invoice whose payment failed is marked UNPAID', async () => {
      const user = await newUser();
      await user.updateCard(tokens.failsLater);
      const err = await expectBillingError(
        user.invoiceFor('Consulting', harness.toEditionAmount(2000)),
        'card_declined',
      );
      const text = pdfText(Buffer.from(await (await user.downloadInvoice(err.invoiceId!)).arrayBuffer()));
      expect(text).toContain('UNPAID');
      expect(text).toMatch(/Status: Unpaid/);
      expect(text).toContain('Consulting');
      expect(text).toContain('Tollgate Inc.');
    });
  });
}

/** The PDF's text, via poppler's `pdftotext` (Debian `poppler-utils`). */
export function pdfText(pdf: Buffer): string {
  const dir = mkdtempSync(join(tmpdir(), 'tollgate-pdf-'));
  try {
    const file = join(dir, 'invoice.pdf');
    writeFileSync(file, pdf);
    return execFileSync('pdftotext', ['-layout', file, '-'], { encoding: 'utf8' });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
