import { afterEach, describe, expect, it } from 'vitest';
import { startSandbox } from './support.js';

// Braintree amounts carry the currency's ISO 4217 decimals: "10.00", "1000" yen, "7.790" dinars.
describe('Braintree sandbox: amounts with each currency’s decimals', () => {
  let env: Awaited<ReturnType<typeof startSandbox>> | undefined;
  afterEach(async () => {
    await env?.server.close();
  });

  const sale = async (currencyIsoCode: string, amount: string) => {
    env = await startSandbox({ currencyIsoCode });
    return env.gateway.transaction.sale({ amount, paymentMethodNonce: 'fake-valid-nonce' });
  };

  it('charges thousandths of a dinar and gives them back as written', async () => {
    const result = await sale('KWD', '7.795');
    expect(result.success).toBe(true);
    expect(result.transaction.amount).toBe('7.795');
    expect(result.transaction.currencyIsoCode).toBe('KWD');
    expect((await env!.gateway.transaction.find(result.transaction.id)).amount).toBe('7.795');
  });

  it.each([
    ['USD', '10.005'],
    ['JPY', '1000.5'],
    ['KWD', '7.7951'],
  ])('refuses more decimals than %s has (%s)', async (currency, amount) => {
    const result = await sale(currency, amount);
    expect(result.success).toBe(false);
    expect(result.errors.deepErrors().map((e) => e.code)).toContain('81503');
  });

  it('writes whole yen and two-decimal dollars as before', async () => {
    expect((await sale('JPY', '1000')).transaction.amount).toBe('1000');
    await env!.server.close();
    expect((await sale('USD', '12.5')).transaction.amount).toBe('12.50');
  });
});
