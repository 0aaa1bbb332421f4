import { OAuthError } from '../errors.js';

/**
 * How the `api` guard's credential checks ended: `valid`, or the refusal's reason (`expired`,
 * `revoked`, `invalid`, `missing`, …; another OAuth error by its code, anything else `error`).
 * Plain numbers, read when metrics are scraped: a reused token only adds one to `valid`.
 */
export class VerificationOutcomes {
  valid = 0;
  readonly refused = new Map<string, number>();

  /** Counts a thrown refusal and throws it on. */
  refuse = (err: unknown): never => {
    const outcome = outcomeOf(err);
    this.refused.set(outcome, (this.refused.get(outcome) ?? 0) + 1);
    throw err;
  };

  /** Counts what a check that had to wait ends with. */
  settle<T>(pending: Promise<T>): Promise<T> {
    return pending.then((value) => {
      this.valid++;
      return value;
    }, this.refuse);
  }

  /** Every outcome with its count. */
  counts(): [string, number][] {
    return [['valid', this.valid], ...this.refused];
  }
}

function outcomeOf(err: unknown): string {
  if (!(err instanceof OAuthError)) return 'error';
  return err.code === 'invalid_token' ? (err.reason ?? 'invalid') : err.code;
}
