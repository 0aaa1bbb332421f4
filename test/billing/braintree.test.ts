import { billingContract } from './billing.case.js';
import { braintreeHarness } from './braintree-harness.js';

billingContract(braintreeHarness);
