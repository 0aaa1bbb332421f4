import braintree from 'braintree';
import type { Credentials } from './domain/context.js';

export interface SandboxGatewayConfig {
  environment: braintree.Environment;
  merchantId: string;
  publicKey: string;
  privateKey: string;
}

/**
 * The `BraintreeGateway` config that points the official SDK at a listening sandbox over plain HTTP
 * (all six Environment arguments, strings where the types want strings).
 */
export function gatewayConfig(
  sandbox: { credentials: Credentials },
  listening: { host: string; port: number },
): SandboxGatewayConfig {
  const port = String(listening.port);
  return {
    environment: new braintree.Environment(listening.host, port, '', false, listening.host, port),
    ...sandbox.credentials,
  };
}
