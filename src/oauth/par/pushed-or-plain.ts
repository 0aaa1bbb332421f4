import type { TollgateConfig } from '../../core/config.js';
import { OAuthError } from '../errors.js';
import type { ClientRecord } from '../records.js';
import { type PushedRequests, REQUEST_URI_PREFIX } from './pushed-requests.js';

/**
 * The authorization endpoint's parameters (RFC 9126 §4): with a `request_uri`, the ones the client
 * pushed (taken, so a second use fails), every other query parameter but `client_id` ignored;
 * without, the query itself.
 */
export async function authorizationParameters(
  query: Readonly<Record<string, string>>,
  pushed: PushedRequests,
): Promise<{ params: Record<string, string>; pushed: boolean }> {
  // Any other request_uri is left to the validation, which refuses it (request_uri_not_supported).
  if (query.request_uri === undefined || !query.request_uri.startsWith(REQUEST_URI_PREFIX))
    return { params: { ...query }, pushed: false };
  if (!query.client_id) throw OAuthError.invalidRequest('The request is missing the "client_id" parameter.');
  return { params: await pushed.take(query.client_id, query.request_uri), pushed: true };
}

/** RFC 9126 §5–6: a plain request from a client (or a server) that requires pushed ones is refused. */
export function checkPushedWhenRequired(
  client: ClientRecord,
  pushed: boolean,
  config: TollgateConfig['oauth'],
): void {
  if (pushed || !(config.requirePushedAuthorizationRequests || client.requirePushedAuthorizationRequests))
    return;
  throw OAuthError.invalidRequest('This client must push its authorization requests first (RFC 9126).', {
    redirectable: true,
  });
}
