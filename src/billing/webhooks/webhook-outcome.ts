import type { WebhookDelivery } from './webhook-steps.js';

/**
 * What became of one webhook request: `handled`; `ignored` (nothing acts on its type);
 * `duplicate` (claimed before); `retry` (503: its subscription is not stored yet); `failed` (500);
 * `refused` (400: a bad or missing signature, so its type is unknown).
 */
export type WebhookOutcome = 'handled' | 'ignored' | 'duplicate' | 'retry' | 'failed' | 'refused';

export interface ProcessedWebhook {
  /** The event's type; empty when its signature was refused. */
  type: string;
  outcome: WebhookOutcome;
  /** When the provider created the event, if it says (absent when refused). */
  createdAt: Date | undefined;
}

/** Told of every webhook request once it is answered (metrics count them). */
export type WebhookObserver = (processed: ProcessedWebhook) => void;

/** The outcome of a delivery whose steps have run (`threw`: one of them threw). */
export function processedWebhook(d: WebhookDelivery, threw: boolean): ProcessedWebhook {
  const type = d.event?.name ?? '';
  const createdAt = d.event?.createdAt;
  if (d.event === undefined) return { type, createdAt, outcome: threw ? 'failed' : 'refused' };
  const status = threw ? 500 : (d.response?.status ?? 200);
  let outcome: WebhookOutcome = 'handled';
  if (status >= 500) outcome = status === 503 ? 'retry' : 'failed';
  else if (d.outcome === 'duplicate') outcome = 'duplicate';
  else if (d.outcome === undefined && d.handler === undefined) outcome = 'ignored';
  return { type, createdAt, outcome };
}
