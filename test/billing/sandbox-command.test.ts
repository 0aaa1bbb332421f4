import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import Stripe from 'stripe';
import { describe, expect, it } from 'vitest';
import { referenceConfig } from '../../app/config.js';

const root = resolve(import.meta.dirname, '../..');

describe('tollgate sandbox:stripe', () => {
  it('serves the Stripe API subset seeded with the application plans until interrupted', async () => {
    const storage = mkdtempSync(join(tmpdir(), 'tollgate-cli-'));
    const child = spawn(
      join(root, 'node_modules/.bin/tsx'),
      [
        'src/cli/main.ts',
        'sandbox:stripe',
        '--port',
        '0',
        '--webhook-url',
        'http://127.0.0.1:9/stripe/webhook',
      ],
      {
        cwd: root,
        env: {
          ...process.env,
          STORAGE_PATH: storage,
          DATABASE_URL: join(storage, 'db.sqlite'),
          LOG_LEVEL: 'silent',
        },
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => {
      out += chunk.toString();
    });
    const exited = new Promise<number | null>((done) => child.on('exit', (code) => done(code)));
    try {
      const url = await new Promise<string>((done, fail) => {
        const timer = setTimeout(() => fail(new Error(`no URL printed: ${out}`)), 60_000);
        child.stdout.on('data', () => {
          const match = /listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(out);
          if (match && /Move its clock/.test(out)) {
            clearTimeout(timer);
            done(match[1]!);
          }
        });
      });
      const ids = (referenceConfig.billing?.plans ?? []).map((p) => p!.id);
      expect(out).toContain(`Plans: ${ids.join(', ')}`);
      expect(out).toMatch(/STRIPE_WEBHOOK_SECRET=whsec_\w+/);
      const port = Number(new URL(url).port);
      const stripe = new Stripe('sk_test_cli', {
        host: '127.0.0.1',
        port,
        protocol: 'http',
        maxNetworkRetries: 0,
      });
      const plan = await stripe.plans.retrieve(ids[0]!);
      expect(plan.id).toBe(ids[0]);
      // The plans' metered price is there with its Billing Meter, so usage reports can be tried.
      expect(out).toContain('Metered prices: price_api_calls (meter calls)');
      const metered = await stripe.prices.retrieve('price_api_calls');
      expect(metered.recurring).toMatchObject({ usage_type: 'metered', meter: expect.any(String) });
      const meters = await stripe.billing.meters.list();
      expect(meters.data.map((m) => m.event_name)).toContain('calls');
      child.kill('SIGINT');
      expect(await exited).toBe(0);
      expect(out).toContain('stopping the Stripe sandbox');
    } finally {
      if (child.exitCode === null) child.kill('SIGKILL');
      rmSync(storage, { recursive: true, force: true });
    }
    // tsx compiles the CLI on start: tens of seconds on a busy machine.
  }, 90_000);
});
