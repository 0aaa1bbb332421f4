import type { ClientRecord } from '../records.js';
import type { AccessTokenStore } from '../stores/contracts.js';

/** OpenID Connect Core §3.1.2.1: `prompt` is a space-delimited list of values. */
export function promptValues(prompt: string | undefined): string[] {
  return (prompt ?? '').split(' ').filter(Boolean);
}

/**
 * Whether the approval page may be skipped (Passport 13's rule): never when `prompt=consent` asks
 * for it; always for a first-party client; otherwise when the user's live tokens for this client
 * already grant every requested scope. The tokens are the memory of the approval: revoking them
 * (the dashboard's Revoke, deleting the client) brings the page back.
 */
export async function approvalAlreadyGiven(
  tokens: Pick<AccessTokenStore, 'liveScopes'>,
  request: { client: ClientRecord; userId: number; scopes: readonly string[]; prompt?: string | undefined },
  now: string,
): Promise<boolean> {
  if (promptValues(request.prompt).includes('consent')) return false;
  if (request.client.firstParty) return true;
  const granted = await tokens.liveScopes(request.userId, request.client.id, now);
  if (granted.length === 0) return false;
  const covered = new Set(granted.flat());
  return request.scopes.every((scope) => covered.has(scope));
}
