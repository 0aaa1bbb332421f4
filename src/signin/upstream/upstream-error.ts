/** Why an upstream sign-in did not give an identity. */
export type UpstreamFailure =
  /** The callback's `state` is not the one this browser was sent with (or none was waiting). */
  | 'state'
  /** The ID token's `nonce` is not the one sent (a token meant for another sign-in). */
  | 'nonce'
  /** The provider answered with an error (`error=access_denied`: the user said no). */
  | 'refused'
  /** The provider could not be reached, or answered something unusable. */
  | 'unavailable';

/** An upstream sign-in that failed; `message` is what the user is shown, `detail` goes to the log only. */
export class UpstreamError extends Error {
  constructor(
    readonly reason: UpstreamFailure,
    message: string,
    readonly detail?: string,
  ) {
    super(message);
    this.name = 'UpstreamError';
  }
}
