import { describe, expect, it } from 'vitest';
import * as status from './status.js';

const now = new Date('2026-06-01T12:00:00Z');
const past = '2026-05-01T00:00:00.000Z';
const future = '2026-07-01T00:00:00.000Z';
const at = (trialEndsAt: string | null, endsAt: string | null) => ({ trialEndsAt, endsAt });

// Spec, "Subscription and trial status": one row per case of the table.
describe('subscription status rules', () => {
  it.each([
    [
      'active, no trial',
      at(null, null),
      { active: true, onTrial: false, cancelled: false, onGracePeriod: false, valid: true, ended: false },
    ],
    [
      'active, in trial',
      at(future, null),
      { active: true, onTrial: true, cancelled: false, onGracePeriod: false, valid: true, ended: false },
    ],
    [
      'trial passed',
      at(past, null),
      { active: true, onTrial: false, cancelled: false, onGracePeriod: false, valid: true, ended: false },
    ],
    [
      'cancelled, in grace',
      at(null, future),
      { active: true, onTrial: false, cancelled: true, onGracePeriod: true, valid: true, ended: false },
    ],
    [
      'cancelled, grace over',
      at(null, past),
      { active: false, onTrial: false, cancelled: true, onGracePeriod: false, valid: false, ended: true },
    ],
    [
      'cancelled in trial, grace over',
      at(past, past),
      { active: false, onTrial: false, cancelled: true, onGracePeriod: false, valid: false, ended: true },
    ],
    [
      'cancelled during trial, still in trial',
      at(future, future),
      { active: true, onTrial: true, cancelled: true, onGracePeriod: true, valid: true, ended: false },
    ],
  ])('%s', (_name, record, expected) => {
    expect({
      active: status.active(record, now),
      onTrial: status.onTrial(record, now),
      cancelled: status.cancelled(record),
      onGracePeriod: status.onGracePeriod(record, now),
      valid: status.valid(record, now),
      ended: status.ended(record, now),
    }).toEqual(expected);
  });

  it('the trial and the grace period end exactly at their instant', () => {
    const edge = now.toISOString();
    expect(status.onTrial(at(edge, null), now)).toBe(false);
    expect(status.onGracePeriod(at(null, edge), now)).toBe(false);
    expect(status.onTrial(at(edge, null), new Date(now.getTime() - 1))).toBe(true);
  });

  it('ended by the provider: a live subscription ends now; a cancelled one keeps its end', () => {
    expect(status.endedByProvider(at(null, null), now)).toBe(now.toISOString());
    expect(status.endedByProvider(at(future, null), now)).toBe(now.toISOString());
    expect(status.endedByProvider(at(future, future), now)).toBeNull();
    expect(status.endedByProvider(at(null, future), now)).toBeNull();
    expect(status.endedByProvider(at(null, past), now)).toBeNull();
  });

  it('generic trial: trial_ends_at on the user record, until it passes', () => {
    expect(status.onGenericTrial({ trial_ends_at: future }, now)).toBe(true);
    expect(status.onGenericTrial({ trial_ends_at: past }, now)).toBe(false);
    expect(status.onGenericTrial({ trial_ends_at: null }, now)).toBe(false);
  });
});

describe("the provider's status in valid()", () => {
  const keep = { keepPastDueSubscribed: true };
  const lockOut = { keepPastDueSubscribed: false };
  it.each([
    ['active', true, true],
    ['trialing', true, true],
    ['past_due', true, false],
    ['incomplete', false, false],
    ['incomplete_expired', false, false],
    ['unpaid', false, false],
    ['paused', false, false],
  ])('%s: valid %s (past due kept), %s (past due locked out)', (word, kept, locked) => {
    const record = { ...at(null, null), status: word };
    expect(status.valid(record, now, keep)).toBe(kept);
    expect(status.valid(record, now, lockOut)).toBe(locked);
  });

  it('past due is still subscribed by default', () => {
    expect(status.valid({ ...at(null, null), status: 'past_due' }, now)).toBe(true);
  });

  it('canceled at the provider keeps the grace period the dates give', () => {
    expect(status.valid({ ...at(null, future), status: 'canceled' }, now)).toBe(true);
    expect(status.valid({ ...at(null, past), status: 'canceled' }, now)).toBe(false);
  });
});
