import { data as iso4217 } from 'currency-codes';
import { describe, expect, it } from 'vitest';
import {
  formatAmount as braintreeFormat,
  parseAmount as braintreeParse,
} from '../../packages/sandbox/src/braintree/objects/money.js';
import {
  assertChargeable as stripeCharges,
  amountDecimals as stripeDecimals,
  majorAmount as stripeMajor,
} from '../../packages/sandbox/src/stripe/objects/currency.js';
import { currency } from '../../src/billing/currencies.js';
import { formatMoney, toMajor, toMinor } from '../../src/billing/money.js';

// Stripe's presentment currencies (https://docs.stripe.com/currencies), with the three-decimal ones.
const STRIPE = `usd aed afn all amd ang aoa ars aud awg azn bam bbd bdt bgn bhd bif bmd bnd bob brl bsd bwp
byn bzd cad cdf chf clp cny cop crc cve czk djf dkk dop dzd egp etb eur fjd fkp gbp gel gip gmd gnf gtq
gyd hkd hnl htg huf idr ils inr isk jmd jod jpy kes kgs khr kmf krw kwd kyd kzt lak lbp lkr lrd lsl mad
mdl mga mkd mmk mnt mop mur mvr mwk mxn myr mzn nad ngn nio nok npr nzd omr pab pen pgk php pkr pln pyg
qar ron rsd rub rwf sar sbd scr sek sgd shp sle sos srd std szl thb tjs tnd top try ttd twd tzs uah ugx
uyu uzs vnd vuv wst xaf xcd xof xpf yer zar zmw`.split(/\s+/);
// Braintree takes ISO 4217 currencies; precious metals, testing codes and the four-decimal units
// of account (CLF, UYW) are not charged to cards.
const BRAINTREE = iso4217
  .filter((c) => c.digits <= 3 && !/^X(A[GU]|B[A-D]|DR|P[DT]|SU|TS|UA|XX)$/.test(c.code))
  .map((c) => c.code);

const shown = (minor: number, code: string) => formatMoney(minor, code, '').replaceAll(',', '');
const stripeTakes = (amount: number, code: string) => {
  try {
    stripeCharges(amount, code);
    return true;
  } catch {
    return false;
  }
};

describe('one currency table: display, Stripe amounts and Braintree amounts agree', () => {
  it.each(STRIPE)('%s: the amount Stripe charges is the amount shown, refused alike', (code) => {
    const rule = currency(code);
    expect(rule.exponent).toBe(stripeDecimals(code));
    for (const amount of [123_400, 123_450, 123_455, 7]) {
      const ours = Number.isInteger(amount / rule.step);
      expect(ours, `${amount} ${code}`).toBe(stripeTakes(amount, code));
      if (ours) expect(shown(amount, code)).toBe(stripeMajor(amount, code));
    }
  });

  it.each(BRAINTREE)('%s: the Braintree amount is the amount shown, and reads back the same', (upper) => {
    const code = upper.toLowerCase();
    const amount = 123_400;
    const major = toMajor(amount, code);
    expect(shown(amount, code)).toBe(major);
    const atBraintree = braintreeParse(major, upper);
    expect(atBraintree, `${major} ${upper}`).not.toBeNull();
    expect(toMinor(braintreeFormat(atBraintree!, upper), code)).toBe(amount);
    expect(toMinor(major, code)).toBe(amount);
  });

  it('writes the figures the providers document', () => {
    expect([formatMoney(7790, 'kwd', 'KD'), toMajor(7790, 'kwd'), currency('kwd').step]).toEqual([
      'KD7.790',
      '7.790',
      10,
    ]);
    expect([formatMoney(779, 'bhd', 'BD'), toMajor(779, 'bhd')]).toEqual(['BD0.779', '0.779']);
    expect([formatMoney(50_000, 'isk', 'kr'), toMajor(50_000, 'isk'), toMinor('500', 'isk')]).toEqual([
      'kr500',
      '500',
      50_000,
    ]);
    expect([formatMoney(1500, 'jpy', '¥'), toMajor(1500, 'jpy')]).toEqual(['¥1,500', '1500']);
    expect([formatMoney(100_045, 'huf', 'Ft'), toMajor(100_045, 'huf')]).toEqual(['Ft1,000.45', '1000.45']);
    expect([formatMoney(1000, 'mga', 'Ar'), toMajor(1000, 'mga')]).toEqual(['Ar1,000', '1000']);
  });
});
