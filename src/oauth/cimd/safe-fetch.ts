import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import { request as httpRequest, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { isIP, type LookupFunction } from 'node:net';
import type { AddressPolicy } from './address-policy.js';

export interface SafeFetchLimits {
  maxBytes: number;
  timeoutMs: number;
}

export interface FetchedDocument {
  status: number;
  contentType: string;
  cacheControl: string;
  body: string;
}

/** Why a fetch was refused or failed; `message` is safe to show to the client's developer. */
export class DocumentFetchError extends Error {}

/**
 * GET `url` without following redirects, refusing what the policy refuses: the host's resolved
 * addresses are checked, and the connection goes to the address that was checked (the lookup
 * hands it to the socket), so a second DNS answer cannot swap in a private one (DNS rebinding).
 * The body is read up to `maxBytes` and the whole exchange bounded by `timeoutMs`.
 */
export function safeFetch(
  url: URL,
  policy: AddressPolicy,
  limits: SafeFetchLimits,
): Promise<FetchedDocument> {
  const host = url.hostname.replace(/^\[|\]$/g, '');
  if (isIP(host)) {
    const refused = policy.refusal(host);
    if (refused) return Promise.reject(refusedAddress(refused));
  }
  return new Promise((resolve, reject) => {
    const request = (url.protocol === 'https:' ? httpsRequest : httpRequest)(url, {
      method: 'GET',
      headers: { accept: 'application/json' },
      agent: false,
      lookup: checkedLookup(policy),
      signal: AbortSignal.timeout(limits.timeoutMs),
    });
    request.on('error', (error) => {
      if (error instanceof DocumentFetchError) reject(error);
      else if (error.name === 'AbortError' || error.name === 'TimeoutError') {
        reject(new DocumentFetchError(`The document did not arrive within ${limits.timeoutMs} ms.`));
      } else reject(new DocumentFetchError('The document could not be fetched.'));
    });
    request.on('response', (response) => {
      readBody(response, limits.maxBytes).then(
        (body) =>
          resolve({
            status: response.statusCode ?? 0,
            contentType: String(response.headers['content-type'] ?? ''),
            cacheControl: String(response.headers['cache-control'] ?? ''),
            body,
          }),
        (error: Error) => {
          request.destroy();
          reject(error);
        },
      );
    });
    request.end();
  });
}

function readBody(response: IncomingMessage, maxBytes: number): Promise<string> {
  const tooLarge = () => new DocumentFetchError(`The document is larger than ${maxBytes} bytes.`);
  if (Number(response.headers['content-length'] ?? 0) > maxBytes) return Promise.reject(tooLarge());
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    response.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > maxBytes) {
        response.destroy();
        reject(tooLarge());
      } else chunks.push(chunk);
    });
    response.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    response.on('error', () => reject(new DocumentFetchError('The document could not be read.')));
  });
}

/** A `lookup` for the socket that fails unless every address the name resolves to is allowed. */
function checkedLookup(policy: AddressPolicy): LookupFunction {
  return (hostname, options, callback) => {
    dnsLookup(hostname, { all: true, family: options.family ?? 0 }, (error, addresses: LookupAddress[]) => {
      if (error) return callback(new DocumentFetchError('The host name does not resolve.'), '', 0);
      const refused = addresses.map((entry) => policy.refusal(entry.address)).find(Boolean);
      if (refused || addresses.length === 0) {
        return callback(refusedAddress(refused ?? 'none'), '', 0);
      }
      if (options.all) return (callback as AllCallback)(null, addresses);
      return callback(null, addresses[0]!.address, addresses[0]!.family);
    });
  };
}

type AllCallback = (error: NodeJS.ErrnoException | null, addresses: LookupAddress[]) => void;

function refusedAddress(range: string): DocumentFetchError {
  return new DocumentFetchError(
    `The document's host is not on a public address (${range}); documents are fetched from public hosts only.`,
  );
}
