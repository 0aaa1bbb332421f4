import { type FieldError, fieldError } from '../objects/errors.js';
import { parseAmount } from '../objects/money.js';
import type { ModificationRecord, SandboxDiscount } from '../store/records.js';
import { bool, int, list, obj, type Params, str } from './params.js';

type Kind = 'discounts' | 'add-ons';

function cycles(spec: Params, fallback: { neverExpires: boolean; numberOfBillingCycles: number | null }) {
  const numberOfBillingCycles =
    'numberOfBillingCycles' in spec ? int(spec.numberOfBillingCycles) : fallback.numberOfBillingCycles;
  const neverExpires =
    bool(spec.neverExpires) ??
    ('numberOfBillingCycles' in spec ? numberOfBillingCycles === null : fallback.neverExpires);
  return { neverExpires, numberOfBillingCycles: neverExpires ? null : numberOfBillingCycles };
}

/**
 * Applies `{ add: [{ inheritedFromId, amount?, numberOfBillingCycles?, neverExpires?, quantity? }],
 * update: [{ existingId, … }], remove: [id] }` to a subscription's discounts or add-ons
 * (Braintree "Subscription: Modifications"). The amount is kept exactly as sent, too.
 */
export function applyModifications(
  kind: Kind,
  current: ModificationRecord[],
  raw: unknown,
  catalog: Map<string, SandboxDiscount>,
  errors: FieldError[],
  currency: string,
): ModificationRecord[] {
  const spec = obj(raw);
  const path = ['subscription', kind];
  let result = current.map((m) => ({ ...m }));
  const removed = list(spec.remove).map((id) => str(id) ?? '');
  for (const id of removed) {
    if (!result.some((m) => m.id === id)) {
      errors.push(fieldError(path, 'id_to_remove', '92025', `Cannot find modification to remove: ${id}.`));
    }
  }
  result = result.filter((m) => !removed.includes(m.id));
  for (const entry of list(spec.update).map(obj)) {
    const existing = result.find((m) => m.id === str(entry.existingId));
    if (!existing) {
      errors.push(
        fieldError(
          [...path, 'update'],
          'existing_id',
          '92011',
          'ID of modification to update does not exist on the subscription.',
        ),
      );
      continue;
    }
    if ('amount' in entry) {
      const amount = parseAmount(entry.amount, currency);
      if (amount === null)
        errors.push(fieldError([...path, 'update'], 'amount', '92002', 'Amount is an invalid format.'));
      else Object.assign(existing, { amount, sentAmount: entry.amount });
    }
    Object.assign(existing, cycles(entry, existing), { quantity: int(entry.quantity) ?? existing.quantity });
  }
  for (const entry of list(spec.add).map(obj)) {
    const base = catalog.get(str(entry.inheritedFromId) ?? '');
    if (!base) {
      errors.push(
        fieldError([...path, 'add'], 'inherited_from_id', '92013', 'Inherited From ID is invalid.'),
      );
      continue;
    }
    if (result.some((m) => m.id === base.id)) {
      errors.push(fieldError(['subscription'], 'base', '91911', 'Cannot add duplicate add-on or discount.'));
      continue;
    }
    const amount =
      'amount' in entry ? parseAmount(entry.amount, currency) : parseAmount(base.amount, currency);
    if (amount === null) {
      errors.push(fieldError([...path, 'add'], 'amount', '92002', 'Amount is an invalid format.'));
      continue;
    }
    const inherited = {
      neverExpires: base.neverExpires ?? base.numberOfBillingCycles == null,
      numberOfBillingCycles: base.numberOfBillingCycles ?? null,
    };
    result.push({
      id: base.id,
      name: base.name,
      amount,
      sentAmount: 'amount' in entry ? entry.amount : base.amount,
      inheritedFromId: base.id,
      ...cycles(entry, inherited),
      currentBillingCycle: 0,
      quantity: int(entry.quantity) ?? 1,
    });
  }
  return result;
}
