import type { SandboxStore } from '../store/store.js';
import type { EventBus } from './webhooks.js';

/** What every resource handler and billing step works on. */
export interface SandboxContext {
  store: SandboxStore;
  events: EventBus;
}
