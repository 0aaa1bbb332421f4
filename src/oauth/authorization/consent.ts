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
  tokens: Pick<AccessTokenStore, 'latestLiveScopes' | 'liveScopes'>,
  request: { client: ClientRecord; userId: number; scopes: readonly string[]; prompt?: string | undefined },
  now: string,
): Promise<boolean> {
  if (promptValues(request.prompt).includes('consent')) return false;
  if (request.client.firstParty) return true;
  const { userId, client, scopes } = request;
  // Usually one token grants it all: the latest is one indexed row, however many the user holds.
  const latest = await tokens.latestLiveScopes(userId, client.id, now);
  if (latest === undefined) return false;
  if (covers([latest], scopes)) return true;
  return covers(await tokens.liveScopes(userId, client.id, now), scopes);
}

function covers(granted: readonly string[][], scopes: readonly string[]): boolean {
  const covered = new Set(granted.flat());
  return scopes.every((scope) => covered.has(scope));
}
