import { ConfigurationError } from '../../core/errors.js';

/** Notices about money: a payment to confirm or that failed, a receipt, a trial ending, a subscription ending. */
export const MONEY_NOTIFICATIONS = [
  'payment-action-required',
  'payment-failed',
  'receipt',
  'trial-ending',
  'subscription-cancelled',
] as const;

/** Notices about the account's safety: only the operator can turn them off, never the user. */
export const SECURITY_NOTIFICATIONS = [
  'password-changed',
  'email-changed',
  'new-device',
  'credential-created',
  'two-factor-enabled',
  'two-factor-disabled',
  'recovery-codes-regenerated',
  'two-factor-locked',
  'sign-in-method-added',
  'sign-in-method-removed',
  'sessions-ended',
  'account-deleted',
] as const;

export type NotificationKind = (typeof MONEY_NOTIFICATIONS)[number] | (typeof SECURITY_NOTIFICATIONS)[number];

export const NOTIFICATION_KINDS: readonly NotificationKind[] = [
  ...MONEY_NOTIFICATIONS,
  ...SECURITY_NOTIFICATIONS,
];

/** `NOTIFICATIONS_OFF=receipt,new-device` → the kinds; an unknown name stops the boot with the list of known ones. */
export function parseKinds(value: string | undefined, name: string): NotificationKind[] | undefined {
  if (value === undefined) return undefined;
  const kinds = value
    .split(',')
    .map((kind) => kind.trim())
    .filter(Boolean);
  const unknown = kinds.filter((kind) => !NOTIFICATION_KINDS.includes(kind as NotificationKind));
  if (unknown.length > 0)
    throw new ConfigurationError(
      `${name}: unknown notification ${unknown.join(', ')} (known: ${NOTIFICATION_KINDS.join(', ')}).`,
    );
  return kinds as NotificationKind[];
}
