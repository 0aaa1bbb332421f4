import type { Application } from '../../kernel/application.js';
import type { GatewayCapabilities } from './capabilities.js';
import type { PaymentGateway } from './payment-gateway.js';

/** What each edition's card form loads in the browser, by Content-Security-Policy directive. */
export type CardFormSources = Readonly<Record<string, readonly string[]>>;

/**
 * One billing edition as a value (as a Kysely dialect is): its capabilities, what its card form
 * needs the Content-Security-Policy to allow, and how to make its gateway from the configuration.
 */
export interface Edition {
  readonly capabilities: GatewayCapabilities;
  readonly cardFormSources: CardFormSources;
  createGateway(app: Application): Promise<PaymentGateway>;
}
