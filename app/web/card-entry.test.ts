import { defineConfig } from 'tollgate';
import { describe, expect, it } from 'vitest';
import { CardEntry, cardEntryConfig } from './card-entry.js';

const html = async (config: ReturnType<typeof cardEntryConfig>) =>
  (await (CardEntry({ config, idPrefix: 'x' }) as Promise<string> | string)).toString();

describe('card entry', () => {
  it('uses the sandbox test-card picker when no Stripe secret is configured', async () => {
    const config = cardEntryConfig(defineConfig({ billing: { stripe: { key: 'pk_test_1' } } }));
    expect(config.provider).toBe('sandbox');
    const markup = await html(config);
    expect(markup).toContain('value="tok_visa"');
    expect(markup).toContain('value="tok_chargeDeclined"');
    expect(markup).not.toMatch(/cardnumber|cc-number|js\.stripe\.com/);
  });

  it('uses Stripe.js Elements with the publishable key and the SetupIntent when real credentials are configured', async () => {
    const config = cardEntryConfig(
      defineConfig({ billing: { stripe: { key: 'pk_test_1', secret: 'sk_test_1' } } }),
      '',
      'seti_1_secret_x',
    );
    expect(config).toEqual({ provider: 'stripe', key: 'pk_test_1', setupSecret: 'seti_1_secret_x' });
    const markup = await html(config);
    expect(markup).toContain('data-provider="stripe"');
    expect(markup).toContain('data-key="pk_test_1"');
    expect(markup).toContain('data-setup-secret="seti_1_secret_x"');
    expect(markup).not.toContain('tok_visa');
  });

  it('a Stripe secret pointing at a standalone sandbox (apiBase) still gets the picker', () => {
    const config = defineConfig({
      billing: { stripe: { key: 'pk_test_1', secret: 'sk_test_1', apiBase: 'http://127.0.0.1:12111' } },
    });
    expect(cardEntryConfig(config).provider).toBe('sandbox');
  });

  it('Braintree: Drop-in with credentials, the nonce picker without', () => {
    const sandbox = cardEntryConfig(defineConfig({ billing: { edition: 'braintree' } }));
    expect(sandbox.provider === 'sandbox' && sandbox.cards.map((c) => c.token)).toContain('fake-valid-nonce');
    const live = defineConfig({
      billing: { edition: 'braintree', braintree: { merchantId: 'm', publicKey: 'p', privateKey: 'k' } },
    });
    expect(cardEntryConfig(live, 'client-token')).toEqual({
      provider: 'braintree',
      authorization: 'client-token',
    });
  });
});
