import { AddressPolicy } from '../cimd/address-policy.js';
import { DocumentFetchError, safeFetch } from '../cimd/safe-fetch.js';
import type { ClientFetchConfig } from '../config.js';

/** Why a client's URL gave nothing usable; the message is meant for the client's developer. */
export class ClientDocumentError extends Error {}

/**
 * GET a URL a client registered or sent (`jwks_uri`, `request_uri`) the way metadata documents
 * are fetched (`safeFetch`: public addresses only, no redirects, bounded size and time): its body
 * when it answers 200, else `ClientDocumentError`.
 */
export async function fetchClientDocument(url: string, config: ClientFetchConfig): Promise<string> {
  let fetched: Awaited<ReturnType<typeof safeFetch>>;
  try {
    fetched = await safeFetch(new URL(url), new AddressPolicy(config.allowAddressRanges), config);
  } catch (error) {
    if (error instanceof DocumentFetchError) throw new ClientDocumentError(error.message);
    throw error;
  }
  if (fetched.status !== 200) {
    const redirect = fetched.status >= 300 && fetched.status < 400 ? ' (redirects are not followed)' : '';
    throw new ClientDocumentError(`Its server answered ${fetched.status}${redirect}.`);
  }
  return fetched.body;
}
