import type { CredentialKind } from './tables.js';

/** What one count is kept under: a row of `api_usage_daily` without its units. */
export interface UsageKey {
  readonly day: string;
  readonly userId: string;
  /** The organization the credential acts for; '' or absent: a personal credential. */
  readonly organizationId?: string;
  readonly clientId: string;
  readonly credentialKind: CredentialKind;
  readonly credentialId: string;
  readonly route: string;
  readonly meter: string;
}

/** One string per key, for the in-memory map (the unit separator cannot occur in the parts). */
export function usageKeyString(k: UsageKey): string {
  return `${k.day}\u001f${k.userId}\u001f${k.organizationId ?? ''}\u001f${k.clientId}\u001f${k.credentialKind}\u001f${k.credentialId}\u001f${k.route}\u001f${k.meter}`;
}

/** `YYYY-MM-DD` of an instant, UTC. */
export function utcDay(at: Date): string {
  return at.toISOString().slice(0, 10);
}
