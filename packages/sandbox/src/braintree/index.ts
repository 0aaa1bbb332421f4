export type { SandboxClock } from '../shared/clock.js';
export type { DeliveryMode, DeliveryOptions, WebhookDeliveryControl } from '../shared/delivery.js';
export type { ListeningSandbox } from '../shared/listen.js';
export type { Credentials } from './domain/context.js';
export { DEFAULT_CREDENTIALS, DEFAULT_PLANS, DEFAULT_RETRY, PLAN_CREDIT } from './domain/defaults.js';
export { CONSUMED_NONCE } from './domain/nonces.js';
export { gatewayConfig, type SandboxGatewayConfig } from './gateway-config.js';
export { signPayload } from './objects/signature.js';
export {
  type BraintreeSandbox,
  type BraintreeSandboxOptions,
  createBraintreeSandbox,
} from './sandbox.js';
export { type ServeBraintreeSandboxOptions, serveBraintreeSandbox } from './serve.js';
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
} from './store/records.js';
export { SandboxStore } from './store/store.js';
