import type { Context } from 'hono';
import type { DpopProofs } from '../dpop/dpop-proofs.js';
import { ProofRefused } from '../dpop/proof.js';
import { OAuthError } from '../errors.js';
import type { VerifiedToken } from './verified-token.js';

/**
 * RFC 9449 §7 at the guard: a bound token (`cnf.jkt`) comes with the DPoP scheme and a proof for
 * this request by its key (`ath` = the token's hash); a bearer token under the DPoP scheme, or a
 * bound one as Bearer, is refused. Without `proofs`, every bound token is refused.
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
      throw err;
    }
    if (jkt !== token.jkt)
      throw OAuthError.invalidToken({ reason: 'proof', detail: 'the proof key is not the token key' });
  }
}

/**
 * RFC 9449 §7.1: any refusal of a request made with the DPoP scheme is a DPoP challenge (a proof
 * refusal already is one).
 */
export function asDpopChallenge(err: unknown): never {
  if (err instanceof OAuthError && err.code === 'invalid_token' && err.reason !== 'proof')
    throw OAuthError.invalidToken({ reason: err.reason ?? 'invalid', detail: err.detail, dpop: true });
  throw err;
}
