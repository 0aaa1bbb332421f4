import braintree from 'braintree';
import { ConfigurationError } from '../../../core/errors.js';
import { hostHeader, traceHttpCalls } from '../../../core/http-client-spans.js';

export interface BraintreeClientOptions {
  /** `sandbox`, `production`, `development` or `qa` (Braintree's own environments). */
  environment: string;
  merchantId: string;
  publicKey: string;
  privateKey: string;
  /** `http://127.0.0.1:4500` for a local sandbox; empty for Braintree's own hosts. */
  apiBase?: string;
}

const ENVIRONMENTS: Record<string, braintree.Environment> = {
  sandbox: braintree.Environment.Sandbox,
  production: braintree.Environment.Production,
  development: braintree.Environment.Development,
  qa: braintree.Environment.Qa,
};

/** Where the SDK sends its calls (fields its type declaration leaves out). */
interface Endpoints {
  server: string;
  port: string;
  ssl: boolean;
  graphQLServer: string;
  graphQLPort: string;
}

/**
 * The official SDK configured from `billing.braintree` (the spec applies these four values to the SDK
 * at boot). `apiBase` points it at another host through the SDK's own `Environment`, which needs all
 * six arguments: gateway host, port, auth URL, ssl, GraphQL host and port. With tracing on, each
 * API call is a client span.
 */
export function createBraintreeGateway(options: BraintreeClientOptions): braintree.BraintreeGateway {
  let environment: braintree.Environment | undefined;
  if (options.apiBase) {
    const url = new URL(options.apiBase);
    const ssl = url.protocol === 'https:';
    const port = url.port || (ssl ? '443' : '80');
    environment = new braintree.Environment(url.hostname, port, '', ssl, url.hostname, port);
  } else {
    environment = ENVIRONMENTS[options.environment.toLowerCase()];
  }
  if (!environment) {
    throw new ConfigurationError(
      `billing.braintree.environment must be one of ${Object.keys(ENVIRONMENTS).join(', ')}; got "${options.environment}".`,
    );
  }
  const { server, port, ssl, graphQLServer, graphQLPort } = environment as unknown as Endpoints;
  traceHttpCalls(hostHeader(server, port, ssl), 'braintree');
  traceHttpCalls(hostHeader(graphQLServer, graphQLPort, ssl), 'braintree');
  return new braintree.BraintreeGateway({
    environment,
    merchantId: options.merchantId,
    publicKey: options.publicKey,
    privateKey: options.privateKey,
  });
}
