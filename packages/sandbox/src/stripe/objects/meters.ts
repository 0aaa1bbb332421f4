import type Stripe from 'stripe';
import { newId } from './ids.js';

export interface MeterInput {
  displayName: string;
  eventName: string;
  formula: Stripe.Billing.Meter.DefaultAggregation.Formula;
  customerPayloadKey: string;
  valuePayloadKey: string;
}

/** A Billing Meter (https://docs.stripe.com/api/billing/meter/object). */
export function makeMeter(created: number, input: MeterInput): Stripe.Billing.Meter {
  return {
    id: newId('mtr'),
    object: 'billing.meter',
    created,
    customer_mapping: { event_payload_key: input.customerPayloadKey, type: 'by_id' },
    default_aggregation: { formula: input.formula },
    display_name: input.displayName,
    event_name: input.eventName,
    event_time_window: null,
    livemode: false,
    status: 'active',
    status_transitions: { deactivated_at: null },
    updated: created,
    value_settings: { event_payload_key: input.valuePayloadKey },
  };
}

/** A meter event (https://docs.stripe.com/api/billing/meter-event/object). */
export function makeMeterEvent(
  created: number,
  input: { eventName: string; identifier?: string; payload: Record<string, string>; timestamp: number },
): Stripe.Billing.MeterEvent {
  return {
    object: 'billing.meter_event',
    created,
    event_name: input.eventName,
    identifier: input.identifier ?? newId('mev'),
    livemode: false,
    payload: input.payload,
    timestamp: input.timestamp,
  };
}
