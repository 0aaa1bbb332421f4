import type { Context } from 'hono';
import { requireSession, type SessionStore } from '../../auth/index.js';

/** What a challenge is for: adding a passkey, or signing in with one. */
export type ChallengePurpose = 'register' | 'authenticate';

interface StoredChallenge {
  passkeyChallenge: string;
  purpose: ChallengePurpose;
  /** Seconds since the epoch after which it is refused. */
  expiresAt: number;
}

const KEY = 'signin.passkey_challenge';
/** As long as the browser waits for the authenticator (the options' `timeout`), and a little more. */
export const CHALLENGE_SECONDS = 300;

/** Keeps the challenge just sent in the session: an answer is accepted only in this session. */
export function rememberChallenge(c: Context, challenge: string, purpose: ChallengePurpose, now: Date): void {
  const stored: StoredChallenge = {
    passkeyChallenge: challenge,
    purpose,
    expiresAt: Math.floor(now.getTime() / 1000) + CHALLENGE_SECONDS,
  };
  requireSession(c).put(KEY, stored);
}

/**
 * Takes the session's challenge for `purpose`, once: it is forgotten whatever comes of the answer,
 * and taken from the stored session row with one conditional update, so of two answers at once
 * (a replayed or double-sent assertion) only one gets it.
 */
export async function takeChallenge(
  c: Context,
  sessions: SessionStore,
  purpose: ChallengePurpose,
  now: Date,
): Promise<string | undefined> {
  const session = requireSession(c);
  const stored = session.get<StoredChallenge>(KEY);
  if (!stored) return undefined;
  session.forget(KEY);
  if (stored.purpose !== purpose || stored.expiresAt < Math.floor(now.getTime() / 1000)) return undefined;
  const taken = await sessions.claim(
    session,
    `"passkeyChallenge":${JSON.stringify(stored.passkeyChallenge)}`,
  );
  return taken ? stored.passkeyChallenge : undefined;
}
