import type { Edition } from '../edition.js';
import { stripeCapabilities } from './capabilities.js';
import { embeddedSandboxGateway } from './embedded-sandbox.js';
import { StripePaymentGateway } from './stripe-gateway.js';

/** The Stripe edition (provider A of the spec), chosen by `billing.edition: 'stripe'`. */
export const stripeEdition: Edition = Object.freeze<Edition>({
  capabilities: stripeCapabilities,
  /** Stripe.js Elements (docs.stripe.com/security/guide, "Content Security Policy"). */
  cardFormSources: {
    'script-src': ['https://js.stripe.com'],
    'frame-src': ['https://js.stripe.com', 'https://hooks.stripe.com'],
    'connect-src': ['https://api.stripe.com'],
    'img-src': ['https://*.stripe.com'],
  },
  /** With no Stripe secret configured, the embedded sandbox stands in. */
  async createGateway(app) {
    const { stripe } = app.config.billing;
    if (!stripe.secret) return embeddedSandboxGateway(app);
    return new StripePaymentGateway({
      secret: stripe.secret,
      apiBase: stripe.apiBase,
      webhookSecret: stripe.webhookSecret,
    });
  },
});
