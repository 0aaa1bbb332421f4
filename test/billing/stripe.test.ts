import { billingContract } from './billing.case.js';
import { stripeHarness } from './stripe-harness.js';

billingContract(stripeHarness);
