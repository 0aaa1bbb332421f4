import { OAuthError } from '../errors.js';
import type { ClientRecord } from '../records.js';
import { secretMatches } from '../secrets.js';
import type { ClientStore } from '../stores/contracts.js';

export interface ClientCredentialsInput {
  params: Readonly<Record<string, string | undefined>>;
  /** The raw Authorization header, if any. */
  authorization?: string | undefined;
}

/**
 * RFC 6749 §2.3.1: the client authenticates with HTTP Basic or with `client_id`/`client_secret`
 * form fields — not both. A public client (no secret) identifies itself by `client_id` alone.
 * After a rotation the replaced secret is accepted until its grace period ends at `now` (the
 * clock's time; without it, only the current secret).
 */
export async function authenticateClient(
  clients: Pick<ClientStore, 'find'>,
  input: ClientCredentialsInput,
  now?: Date,
): Promise<ClientRecord> {
  const basic = parseBasic(input.authorization);
  if (basic && input.params.client_secret !== undefined) {
    throw OAuthError.invalidRequest('Use one client authentication method, not two.');
  }
  if (basic && input.params.client_id !== undefined && input.params.client_id !== basic.id) {
    throw OAuthError.invalidRequest('The client_id does not match the Authorization header.');
  }
  const id = basic?.id ?? input.params.client_id;
  const secret = basic?.secret ?? input.params.client_secret;
  if (!id) throw OAuthError.invalidRequest('The request is missing the "client_id" parameter.');
  const client = await clients.find(id);
  if (!client || client.revoked) throw OAuthError.invalidClient(`unknown or revoked client ${id}`);
  if (client.secretHash !== null) {
    if (!secret || !(secretMatches(secret, client.secretHash) || inGracePeriod(client, secret, now))) {
      throw OAuthError.invalidClient(`bad secret for client ${id}`);
    }
  }
  return client;
}

/** Whether `secret` is the one the last rotation replaced, and its grace period still runs. */
export function inGracePeriod(client: ClientRecord, secret: string, now: Date | undefined): boolean {
  const previous = client.previousSecret;
  if (!previous || !now || now.getTime() >= Date.parse(previous.expiresAt)) return false;
  return secretMatches(secret, previous.hash);
}

/** `Basic base64(urlencode(id) ":" urlencode(secret))` (RFC 6749 §2.3.1 form-encodes both). */
function parseBasic(header: string | undefined): { id: string; secret: string } | undefined {
  if (!header || !/^basic /i.test(header)) return undefined;
  const decoded = Buffer.from(header.slice(6).trim(), 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  if (colon < 0) throw OAuthError.invalidClient('malformed Basic credentials');
  try {
    const decode = (s: string) => decodeURIComponent(s.replace(/\+/g, ' '));
    return { id: decode(decoded.slice(0, colon)), secret: decode(decoded.slice(colon + 1)) };
  } catch {
    throw OAuthError.invalidClient('malformed Basic credentials');
  }
}
