export { TEST_TOKENS } from './cards.js';
export { type StripeErrorBody, type StripeErrorType, StripeSandboxError } from './errors.js';
export { RETRY_DAYS } from './invoice-lifecycle.js';
export type { SandboxCoupon, SandboxPlan } from './resources/catalog.js';
export {
  createStripeSandbox,
  type RunningStripeSandbox,
  type StripeSandbox,
  type StripeSandboxOptions,
} from './sandbox.js';
export { type ServeStripeSandboxOptions, serveStripeSandbox } from './serve.js';
export type { RequestLogEntry } from './server.js';
export type { SandboxClock, SandboxStore } from './store.js';
export { API_VERSION, signPayload, type WebhookDelivery, type WebhookTarget } from './webhooks.js';
