import { serveBraintreeSandbox } from '@tollgate/sandbox/braintree';
import braintree from 'braintree';
import { describe, expect, it } from 'vitest';

describe('serveBraintreeSandbox (the sandbox:braintree command)', () => {
  it('serves on the given host and port with a banner naming the credentials', async () => {
    const lines: string[] = [];
    const { sandbox, server } = await serveBraintreeSandbox({
      host: '127.0.0.1',
      port: 0,
      log: (l) => lines.push(l),
    });
    try {
      expect(lines[0]).toBe(`Braintree sandbox listening on ${server.url}`);
      expect(lines.join('\n')).toContain(`private_key=${sandbox.credentials.privateKey}`);
      const gateway = new braintree.BraintreeGateway(sandbox.gatewayConfig(server));
      const plans = await gateway.plan.all();
      expect(plans.map((p) => p.id)).toEqual(['monthly', 'yearly']);
      // The standalone clock follows real time, shifted by /_sandbox/advance.
      const before = Date.now();
      await sandbox.advance(86_400);
      expect(sandbox.clock.now().getTime() - before).toBeGreaterThanOrEqual(86_400_000);
    } finally {
      await server.close();
    }
  });
});
