import { ENGINES } from '../support/engines.js';
import { billingContract } from './billing.case.js';
import { braintreeHarness } from './braintree-harness.js';

for (const engine of ENGINES) billingContract(braintreeHarness, engine);
