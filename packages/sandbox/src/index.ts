export {
  type BraintreeSandbox,
  type BraintreeSandboxOptions,
  createBraintreeSandbox,
  type ServeBraintreeSandboxOptions,
  serveBraintreeSandbox,
} from './braintree/index.js';
export { ManualClock, type SandboxClock, ShiftedClock } from './shared/clock.js';
export type { DeliveryMode, DeliveryOptions, WebhookDeliveryControl } from './shared/delivery.js';
export type { ListeningSandbox } from './shared/listen.js';
export {
  createStripeSandbox,
  type ServeStripeSandboxOptions,
  type StripeSandbox,
  type StripeSandboxOptions,
  serveStripeSandbox,
} from './stripe/index.js';
