import type { Context } from 'hono';
import { requireSession } from '../../auth/context.js';
import type { SessionStore } from '../../auth/session-store.js';
import { safeEqual } from '../secrets.js';

/** A request a page asks the user to decide, kept in the session between the page and its forms. */
export interface PendingDecision {
  /** Posted back by the page's forms (`auth_token`): binds the decision to this request. */
  authToken: string;
  userId: number;
}

// RFC 9700 §4.16: the decision pages must not be framable (clickjacking). The application's strict
// Content-Security-Policy (with `frame-ancestors 'none'`) reaches them as every response, unless a
// replacement view sets its own; framing stays refused either way.
export const decisionPageHeaders = {
  'X-Frame-Options': 'DENY',
  'Cache-Control': 'no-store',
} as const;

/** The pending request under `key`, once: only for the user it was shown to and the page's `auth_token`. */
export function takePending<T extends PendingDecision>(
  c: Context,
  key: string,
  form: Record<string, unknown>,
): T | undefined {
  const session = requireSession(c);
  const pending = session.get<T>(key);
  const given = typeof form.auth_token === 'string' ? form.auth_token : '';
  if (!pending || !given || !safeEqual(pending.authToken, given)) return undefined;
  if (pending.userId !== c.get('user')?.id) return undefined;
  session.forget(key);
  return pending;
}

/**
 * `takePending`, and also atomically against the stored session: two posts of the same page at once
 * both read the request before either saves the session, and only the first to take it from the
 * stored row answers it (a double click issues one answer).
 */
export async function takePendingOnce<T extends PendingDecision>(
  c: Context,
  sessions: SessionStore,
  key: string,
  form: Record<string, unknown>,
): Promise<T | undefined> {
  const pending = takePending<T>(c, key, form);
  if (!pending) return undefined;
  const taken = await sessions.claim(requireSession(c), `"authToken":${JSON.stringify(pending.authToken)}`);
  return taken ? pending : undefined;
}
