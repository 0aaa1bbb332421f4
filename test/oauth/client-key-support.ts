import { exportJWK, generateKeyPair, type JWK } from 'jose';
import * as oauth from 'oauth4webapi';
import { ISSUER } from './openid-support.js';

/** The token endpoint as the issuer names it: the `aud` RFC 7523 §3 recommends. */
export const TOKEN_ENDPOINT = `${ISSUER}/oauth/token`;

/** A client's RS256 key pair: the private key it signs with and the public JWK it registers. */
export interface ClientKey {
  kid: string;
  privateKey: CryptoKey;
  jwk: JWK;
}

export async function clientKey(kid: string, alg: 'RS256' | 'ES256' = 'RS256'): Promise<ClientKey> {
  const { privateKey, publicKey } = await generateKeyPair(alg, { extractable: true });
  return { kid, privateKey, jwk: { ...(await exportJWK(publicKey)), kid, alg, use: 'sig' } };
}

/**
 * `private_key_jwt` client authentication by oauth4webapi with `key`, the assertion's `aud` the
 * token endpoint (oauth4webapi's own default is the issuer); `modify` changes it further.
 */
export function keyAuth(
  key: ClientKey,
  modify: (header: Record<string, unknown>, payload: Record<string, unknown>) => void = () => {},
): oauth.ClientAuth {
  return oauth.PrivateKeyJwt(
    { key: key.privateKey, kid: key.kid },
    {
      [oauth.modifyAssertion]: (header, payload) => {
        payload.aud = TOKEN_ENDPOINT;
        modify(header as Record<string, unknown>, payload as Record<string, unknown>);
      },
    },
  );
}
