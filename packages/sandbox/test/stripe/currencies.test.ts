import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type Harness, startSandbox } from './support.js';

// https://docs.stripe.com/currencies: amounts in the smallest unit; a three-decimal amount must end
// in 0, and ISK and UGX take hundredths that make whole krónur and shillings.
describe('Stripe sandbox: amounts in every kind of currency', () => {
  let h: Harness;
  beforeEach(async () => {
    h = await startSandbox({
      plans: [{ id: 'dinar', amount: 7790, currency: 'kwd', interval: 'month', product: 'Dinar plan' }],
    });
  });
  afterEach(async () => h.close());

  const charge = (amount: number, currency: string) =>
    h.stripe.charges.create({ amount, currency, source: 'tok_visa' }).catch((e) => e);

  it('charges three-decimal amounts that end in 0 and refuses the others with Stripe’s reason', async () => {
    expect(await charge(7790, 'kwd')).toMatchObject({ amount: 7790, currency: 'kwd', status: 'succeeded' });
    for (const currency of ['bhd', 'jod', 'kwd', 'omr', 'tnd']) {
      const refused = await charge(7795, currency);
      expect(refused).toMatchObject({ statusCode: 400, param: 'amount' });
      expect(refused.message).toContain('rounded to the nearest ten');
    }
    const intent = await h.stripe.paymentIntents.create({ amount: 1001, currency: 'omr' }).catch((e) => e);
    expect(intent).toMatchObject({ statusCode: 400, param: 'amount' });
  });

  it('takes ISK and UGX in hundredths of whole units only', async () => {
    expect(await charge(50_000, 'isk')).toMatchObject({ amount: 50_000, status: 'succeeded' });
    expect(await charge(50_000, 'ugx')).toMatchObject({ amount: 50_000, status: 'succeeded' });
    for (const currency of ['isk', 'ugx']) {
      const refused = await charge(50_050, currency);
      expect(refused.message).toContain('must be evenly divisible by 100');
    }
    // Hungarian forints and Taiwan dollars keep their hundredths when charged.
    expect(await charge(100_045, 'huf')).toMatchObject({ amount: 100_045, status: 'succeeded' });
    expect(await charge(80_045, 'twd')).toMatchObject({ amount: 80_045, status: 'succeeded' });
  });

  it('writes a three-decimal amount with three decimals on invoice lines', async () => {
    const customer = await h.stripe.customers.create({ source: 'tok_visa' });
    await h.stripe.invoiceItems.create({ customer: customer.id, amount: 1230, currency: 'kwd' });
    const sub = await h.stripe.subscriptions.create({ customer: customer.id, items: [{ price: 'dinar' }] });
    const invoice = await h.stripe.invoices.retrieve(String(sub.latest_invoice));
    expect(invoice.total).toBe(7790 + 1230);
    expect(invoice.lines.data.map((l) => l.description).join(' ')).toContain('7.790 KWD');
  });
});
