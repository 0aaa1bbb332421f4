import { createHash, createPrivateKey, type KeyObject, randomUUID, sign } from 'node:crypto';

const b64 = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');

/**
 * RFC 9449 §4 proofs as a DPoP client makes them, one per request: ES256 with node:crypto, the
 * header and `ath` computed once, a fresh `jti` and `iat` each time (the server refuses a replay).
 */
export function dpopProofs(
  privateKeyPem: string,
  jwk: Record<string, string>,
  accessToken?: string,
): (method: string, url: string) => string {
  const key: KeyObject = createPrivateKey(privateKeyPem);
  const header = b64({ typ: 'dpop+jwt', alg: 'ES256', jwk });
  const ath = accessToken ? createHash('sha256').update(accessToken).digest('base64url') : undefined;
  return (method, url) => {
    const payload = b64({
      jti: randomUUID(),
      htm: method,
      htu: url,
      iat: Math.floor(Date.now() / 1000),
      ath,
    });
    const input = `${header}.${payload}`;
    const signature = sign('sha256', Buffer.from(input), { key, dsaEncoding: 'ieee-p1363' });
    return `${input}.${signature.toString('base64url')}`;
  };
}
