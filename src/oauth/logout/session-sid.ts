import type { Session } from '../../auth/session.js';
import { randomSecret } from '../secrets.js';

/** The session key of the login session's OpenID Connect `sid`. */
const SID = 'oidc.sid';

/**
 * Back-Channel Logout §2.1: the `sid` of the user's login session, made on first use. It lives
 * in the session's data, so it lasts until the logout empties the session.
 */
export function sessionSid(session: Session): string {
  const known = session.get<unknown>(SID);
  if (typeof known === 'string') return known;
  const sid = randomSecret().slice(0, 32);
  session.put(SID, sid);
  return sid;
}

/** The session's `sid`, if an authorization made one. */
export function existingSid(session: Session | undefined): string | null {
  const known = session?.get<unknown>(SID);
  return typeof known === 'string' ? known : null;
}

/** The `sid` in an ended session's stored data (`SessionsEnded`), if an authorization made one. */
export function sidInData(data: Readonly<Record<string, unknown>>): string | null {
  const known = data[SID];
  return typeof known === 'string' ? known : null;
}
