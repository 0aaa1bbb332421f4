import { sign } from 'node:crypto';
import type { Signing } from './access-token-signer.js';

/**
 * A compact JWS (RFC 7515 §7.1) of `payload` under a serialised protected header (`headerDot`:
 * its base64url and the trailing dot), signed with `node:crypto` as `signing` says.
 */
export async function signCompact(signing: Signing, headerDot: string, payload: object): Promise<string> {
  const input = headerDot + Buffer.from(JSON.stringify(payload)).toString('base64url');
  const data = Buffer.from(input);
  const signature = signing.offload
    ? await signOffThread(signing, data)
    : sign(signing.digest, data, signing.key);
  return `${input}.${signature.toString('base64url')}`;
}

/** A protected header as `signCompact` takes it. */
export function encodeHeader(header: object): string {
  return `${Buffer.from(JSON.stringify(header)).toString('base64url')}.`;
}

/** `crypto.sign` with a callback runs on the thread pool; its errors reject. */
function signOffThread(signing: Signing, data: Buffer): Promise<Buffer> {
  return new Promise((resolve, reject) =>
    sign(signing.digest, data, signing.key, (err, signature) => (err ? reject(err) : resolve(signature))),
  );
}
