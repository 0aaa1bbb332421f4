import { createServer, type Server } from 'node:http';
import { ManualClock } from '@tollgate/sandbox';
import { createStripeSandbox, type StripeSandbox, type StripeSandboxOptions } from '@tollgate/sandbox/stripe';
import Stripe from 'stripe';

/** A fixed start, mid-month, so month arithmetic in tests is unambiguous. */
export const START = Date.UTC(2026, 0, 15, 12, 0, 0);
export const DAY = 86_400;

export interface Harness {
  sandbox: StripeSandbox;
  clock: ManualClock;
  stripe: Stripe;
  port: number;
  close(): Promise<void>;
}

/** A sandbox on a real port with the official SDK pointed at it, as the adapter will be. */
export async function startSandbox(options: StripeSandboxOptions = {}): Promise<Harness> {
  const clock = new ManualClock(START);
  const sandbox = createStripeSandbox({
    clock,
    plans: [
      { id: 'monthly', amount: 1000, interval: 'month', product: 'Pro' },
      { id: 'yearly', amount: 10000, interval: 'year', product: 'Pro (yearly)' },
      { id: 'team', amount: 2500, interval: 'month', product: 'Team' },
    ],
    coupons: [
      { id: 'HALF', percent_off: 50, duration: 'forever' },
      { id: 'FIVE_OFF_ONCE', amount_off: 500, currency: 'usd', duration: 'once' },
    ],
    ...options,
  });
  const running = await sandbox.listen(0);
  const stripe = new Stripe('sk_test_sandbox', {
    host: '127.0.0.1',
    port: running.port,
    protocol: 'http',
    maxNetworkRetries: 0,
  });
  return { sandbox, clock, stripe, port: running.port, close: running.close };
}

export interface Receiver {
  url: string;
  /** Events that passed `stripe.webhooks.constructEvent`. */
  events: Stripe.Event[];
  /** Status to answer with (default 200). */
  status: number;
  /** How many deliveries to refuse with 503 before answering with `status`. */
  failNext: number;
  close(): Promise<void>;
}

/** A webhook endpoint that verifies each delivery with the SDK, as Tollgate's controller will. */
export async function startReceiver(secret: string): Promise<Receiver> {
  const verifier = new Stripe('sk_test_verifier');
  const receiver: Receiver = { url: '', events: [], status: 200, failNext: 0, close: async () => {} };
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      try {
        const body = Buffer.concat(chunks).toString('utf8');
        const event = verifier.webhooks.constructEvent(body, String(req.headers['stripe-signature']), secret);
        const status = receiver.failNext > 0 ? 503 : receiver.status;
        if (receiver.failNext > 0) receiver.failNext--;
        if (status < 300) receiver.events.push(event);
        res.statusCode = status;
      } catch {
        res.statusCode = 400;
      }
      res.end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  receiver.url = `http://127.0.0.1:${port}/stripe/webhook`;
  receiver.close = () => new Promise((resolve) => server.close(() => resolve()));
  return receiver;
}
