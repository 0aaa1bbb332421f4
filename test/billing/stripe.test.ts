import { ENGINES } from '../support/engines.js';
import { billingContract } from './billing.case.js';
import { stripeHarness } from './stripe-harness.js';

for (const engine of ENGINES) billingContract(stripeHarness, engine);
