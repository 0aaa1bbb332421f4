import type Stripe from 'stripe';
import { StripeSandboxError } from '../objects/errors.js';
import { makeMeter, makeMeterEvent } from '../objects/meters.js';
import type { SandboxContext } from './context.js';
import type { Params } from './params.js';

const FORMULAS = ['sum', 'count', 'last'];
/** Stripe takes meter events up to 35 days old and up to 5 minutes ahead (clock drift). */
const MAX_AGE_SECONDS = 35 * 86_400;
const MAX_AHEAD_SECONDS = 5 * 60;

/** `POST /v1/billing/meters` (https://docs.stripe.com/api/billing/meter/create). */
export function createMeter(ctx: SandboxContext, p: Params): Stripe.Billing.Meter {
  const eventName = p.required('event_name');
  const formula = p.object('default_aggregation')?.str('formula');
  if (!formula) throw StripeSandboxError.missingParam('default_aggregation[formula]');
  if (!FORMULAS.includes(formula))
    throw StripeSandboxError.invalid(
      `Invalid default_aggregation[formula]: must be one of ${FORMULAS.join(', ')}`,
      'default_aggregation[formula]',
    );
  const mapping = p.object('customer_mapping');
  if (mapping && mapping.str('type') !== 'by_id')
    throw StripeSandboxError.invalid('customer_mapping[type] must be by_id', 'customer_mapping[type]');
  if (activeMeter(ctx, eventName))
    throw StripeSandboxError.invalid(
      `A meter with event_name ${eventName} already exists.`,
      'event_name',
      'resource_already_exists',
    );
  const meter = makeMeter(ctx.store.now(), {
    displayName: p.required('display_name'),
    eventName,
    formula,
    customerPayloadKey: mapping?.str('event_payload_key') || 'stripe_customer_id',
    valuePayloadKey: p.object('value_settings')?.str('event_payload_key') || 'value',
  });
  ctx.store.meters.set(meter.id, meter);
  return meter;
}

export function activeMeter(ctx: SandboxContext, eventName: string): Stripe.Billing.Meter | undefined {
  return [...ctx.store.meters.values()].find((m) => m.event_name === eventName && m.status === 'active');
}

/**
 * `POST /v1/billing/meter_events` (https://docs.stripe.com/api/billing/meter-event/create). An
 * `identifier` already received answers with the event first recorded under it and counts once:
 * uniqueness by identifier is what makes a retried report safe. Stripe validates the payload
 * asynchronously; the sandbox refuses a bad one at once, so a test sees the mistake.
 */
export function recordMeterEvent(ctx: SandboxContext, p: Params): Stripe.Billing.MeterEvent {
  const { store } = ctx;
  const eventName = p.required('event_name');
  const identifier = p.str('identifier');
  const seen = identifier === undefined ? undefined : store.meterEvents.get(identifier);
  if (seen) return seen;
  const meter = activeMeter(ctx, eventName);
  if (!meter)
    throw StripeSandboxError.invalid(`No active meter found for event_name ${eventName}.`, 'event_name');
  const payload = p.object('payload');
  if (!payload) throw StripeSandboxError.missingParam('payload');
  const customerKey = meter.customer_mapping.event_payload_key;
  const customer = payload.str(customerKey);
  if (!customer) throw StripeSandboxError.missingParam(`payload[${customerKey}]`);
  store.customer(customer, `payload[${customerKey}]`);
  const valueKey = meter.value_settings.event_payload_key;
  const value = payload.str(valueKey);
  if (meter.default_aggregation.formula !== 'count') {
    if (value === undefined) throw StripeSandboxError.missingParam(`payload[${valueKey}]`);
    if (!/^-?\d+$/.test(value))
      throw StripeSandboxError.invalid(
        `Invalid payload[${valueKey}]: usage values must be whole numbers.`,
        `payload[${valueKey}]`,
      );
  }
  const now = store.now();
  const timestamp = p.int('timestamp') ?? now;
  if (timestamp < now - MAX_AGE_SECONDS || timestamp > now + MAX_AHEAD_SECONDS)
    throw StripeSandboxError.invalid(
      'Timestamp must be within the past 35 calendar days and no more than 5 minutes in the future.',
      'timestamp',
    );
  const event = makeMeterEvent(now, {
    eventName,
    identifier,
    payload: Object.fromEntries(Object.entries(payload.raw).map(([k, v]) => [k, String(v)])),
    timestamp,
  });
  store.meterEvents.set(event.identifier, event);
  return event;
}

/**
 * The usage a metered price bills a customer for `[start, end)`: the meter's aggregation of the
 * customer's events in that window; a negative total bills 0, as Stripe does.
 */
export function meteredUsage(
  ctx: SandboxContext,
  price: Stripe.Price,
  customer: string,
  window: { start: number; end: number },
): number {
  const meterId = price.recurring?.meter;
  const meter = meterId ? ctx.store.meters.get(meterId) : undefined;
  if (!meter) return 0;
  const customerKey = meter.customer_mapping.event_payload_key;
  const valueKey = meter.value_settings.event_payload_key;
  const events = [...ctx.store.meterEvents.values()].filter(
    (e) =>
      e.event_name === meter.event_name &&
      e.payload[customerKey] === customer &&
      e.timestamp >= window.start &&
      e.timestamp < window.end,
  );
  const formula = meter.default_aggregation.formula;
  if (formula === 'count') return events.length;
  if (formula === 'last') {
    const last = events.sort((a, b) => a.timestamp - b.timestamp).at(-1);
    return Math.max(0, Number(last?.payload[valueKey] ?? 0));
  }
  return Math.max(
    0,
    events.reduce((sum, e) => sum + Number(e.payload[valueKey] ?? 0), 0),
  );
}

export function isMetered(price: Stripe.Price): boolean {
  return price.recurring?.usage_type === 'metered';
}
