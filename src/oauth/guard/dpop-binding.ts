import type { Context } from 'hono';
import type { DpopProofs } from '../dpop/dpop-proofs.js';
import { NonceRequired, ProofRefused } from '../dpop/proof.js';
import { OAuthError } from '../errors.js';
import type { VerifiedToken } from './verified-token.js';

/**
 * RFC 9449 §7 at the guard: a bound token (`cnf.jkt`) comes with the DPoP scheme and a proof for
 * this request by its key (`ath` = the token's hash); a bearer token under the DPoP scheme, or a
 * bound one as Bearer, is refused. Without `proofs`, every bound token is refused. With nonces on
 * (§9), a proof without a current one is `use_dpop_nonce`, with the nonce in `DPoP-Nonce`.
 */
export class DpopBinding {
  constructor(private readonly proofs: DpopProofs | undefined) {}

  /**
   * `dpop`: the token from `Authorization: DPoP …`, undefined for a Bearer request. The guard calls
   * this only for a bound token or a DPoP request, so a plain bearer token awaits nothing here.
   */
  async check(c: Context, token: VerifiedToken, dpop: string | undefined): Promise<void> {
    if (dpop === undefined) throw OAuthError.invalidToken({ reason: 'bound' });
    if (token.jkt === null || this.proofs === undefined) throw OAuthError.invalidToken({ reason: 'invalid' });
    let jkt: string;
    try {
      jkt = await this.proofs.check(c.req.header('dpop'), {
        method: c.req.method,
        url: c.req.url,
        accessToken: dpop,
      });
    } catch (err) {
      if (err instanceof ProofRefused)
        throw OAuthError.invalidToken({ reason: 'proof', detail: err.message });
      if (err instanceof NonceRequired) {
        const headers = { 'DPoP-Nonce': err.nonce };
        throw OAuthError.invalidToken({ reason: 'nonce', detail: err.message, dpop: true, headers });
      }
      throw err;
    }
    // RFC 9449 §8.2: the next nonce rides on every answer to a proof, so clients never fall behind.
    const nonce = this.proofs.currentNonce();
    if (nonce !== undefined) c.header('DPoP-Nonce', nonce);
    if (jkt !== token.jkt)
      throw OAuthError.invalidToken({ reason: 'proof', detail: 'the proof key is not the token key' });
  }
}

/**
 * RFC 9449 §7.1: any refusal of a request made with the DPoP scheme is a DPoP challenge (a proof
 * refusal already is one).
 */
export function asDpopChallenge(err: unknown): never {
  if (
    err instanceof OAuthError &&
    err.code === 'invalid_token' &&
    err.reason !== 'proof' &&
    err.reason !== 'nonce'
  )
    throw OAuthError.invalidToken({ reason: err.reason ?? 'invalid', detail: err.detail, dpop: true });
  throw err;
}
