import { IssuedInvoices } from '../../invoices/issued-invoices.js';
import type { Edition } from '../edition.js';
import { BraintreePaymentGateway } from './braintree-gateway.js';
import { braintreeCapabilities } from './capabilities.js';
import { createBraintreeGateway } from './client.js';
import { embeddedSandboxGateway } from './embedded-sandbox.js';

/** The Braintree edition (provider B of the spec), chosen by `billing.edition: 'braintree'`. */
export const braintreeEdition: Edition = Object.freeze<Edition>({
  capabilities: braintreeCapabilities,
  /**
   * Braintree's Drop-in with PayPal (Braintree's JavaScript SDK setup guide, "Content Security
   * Policy"), live and sandbox hosts. Drop-in writes inline styles, so this edition alone gets
   * `'unsafe-inline'` for styles — never for scripts.
   */
  cardFormSources: {
    'script-src': [
      'https://js.braintreegateway.com',
      'https://assets.braintreegateway.com',
      'https://www.paypalobjects.com',
      'https://*.paypal.com',
    ],
    'style-src': ["'unsafe-inline'", 'https://assets.braintreegateway.com'],
    'frame-src': [
      'https://assets.braintreegateway.com',
      'https://*.paypal.com',
      'https://*.cardinalcommerce.com',
    ],
    'connect-src': [
      'https://api.braintreegateway.com',
      'https://api.sandbox.braintreegateway.com',
      'https://client-analytics.braintreegateway.com',
      'https://client-analytics.sandbox.braintreegateway.com',
      'https://*.braintree-api.com',
      'https://*.paypal.com',
    ],
    'img-src': ['https://assets.braintreegateway.com', 'https://checkout.paypal.com'],
  },
  /**
   * `billing.braintree` (environment, merchant id, public and private key) configures the SDK here,
   * at boot; without credentials the embedded sandbox stands in.
   */
  async createGateway(app) {
    const { braintree, coupons, currency } = app.config.billing;
    if (!braintree.merchantId || !braintree.publicKey || !braintree.privateKey) {
      return embeddedSandboxGateway(app);
    }
    return new BraintreePaymentGateway({
      gateway: createBraintreeGateway(braintree),
      clock: app.clock,
      coupons,
      currency,
      history: new IssuedInvoices(app.db, 'braintree'),
      logger: app.logger,
      challengePage: braintree.apiBase
        ? new URL('/_sandbox/three_d_secure', braintree.apiBase).toString()
        : null,
    });
  },
});
