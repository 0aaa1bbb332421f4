import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { ManualClock } from '@tollgate/sandbox';
import { type BraintreeSandboxOptions, createBraintreeSandbox } from '@tollgate/sandbox/braintree';
import braintree from 'braintree';

/** Test-only: a sandbox listening on a random port, and the official SDK pointed at it. */
export async function startSandbox(options: BraintreeSandboxOptions = {}) {
  const clock = new ManualClock(Date.parse('2026-01-10T12:00:00.000Z'));
  const sandbox = createBraintreeSandbox({ clock, ...options });
  const server = await sandbox.listen();
  const gateway = new braintree.BraintreeGateway(sandbox.gatewayConfig(server));
  return { clock, sandbox, server, gateway };
}

export interface ReceivedWebhook {
  signature: string;
  payload: string;
}

/** Test-only: a loopback HTTP endpoint that records form-encoded webhook posts. */
export async function startWebhookReceiver() {
  const received: ReceivedWebhook[] = [];
  const server = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => {
      body += chunk.toString('utf8');
    });
    req.on('end', () => {
      const form = new URLSearchParams(body);
      received.push({ signature: form.get('bt_signature') ?? '', payload: form.get('bt_payload') ?? '' });
      res.writeHead(200).end('ok');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/braintree/webhook`,
    received,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** Collects a search stream into an array. */
export function collect<T>(stream: NodeJS.ReadableStream): Promise<T[]> {
  return new Promise((resolve, reject) => {
    const items: T[] = [];
    stream.on('data', (item: T) => items.push(item));
    stream.on('end', () => resolve(items));
    stream.on('error', reject);
  });
}
