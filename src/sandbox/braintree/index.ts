export type { Credentials } from './context.js';
export { DEFAULT_CREDENTIALS, DEFAULT_PLANS, DEFAULT_RETRY, PLAN_CREDIT } from './defaults.js';
export { gatewayConfig, type SandboxGatewayConfig } from './gateway-config.js';
export { CONSUMED_NONCE } from './nonces.js';
export {
  type BraintreeSandbox,
  type BraintreeSandboxOptions,
  createBraintreeSandbox,
  type ListeningSandbox,
} from './sandbox.js';
export { type ServeBraintreeSandboxOptions, serveBraintreeSandbox } from './serve.js';
export { signPayload } from './signature.js';
export { SandboxStore } from './store.js';
export type {
  CustomerRecord,
  Instrument,
  ModificationRecord,
  PaymentMethodRecord,
  RecordedRequest,
  SandboxDiscount,
  SandboxPlan,
  SubscriptionRecord,
  SubscriptionStatus,
  TransactionRecord,
  WebhookDelivery,
} from './types.js';
