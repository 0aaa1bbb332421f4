import type { Context } from 'hono';
import { LoggerKey } from '../../core/keys.js';
import type { Logger } from '../../core/logger.js';
import { DpopProofs } from '../dpop/dpop-proofs.js';
import { PushedAuthorizationEndpoint } from '../par/pushed-authorization-endpoint.js';
import { answerFormEndpoint } from './respond.js';

/** `POST /oauth/par` (RFC 9126 §2): 201 with the `request_uri`, errors as at the token endpoint. */
export class PushedAuthorizationController {
  static inject = [PushedAuthorizationEndpoint, LoggerKey, DpopProofs] as const;

  constructor(
    private readonly endpoint: PushedAuthorizationEndpoint,
    private readonly logger: Logger,
    private readonly proofs: DpopProofs,
  ) {}

  push(c: Context): Promise<Response> {
    return answerFormEndpoint(
      c,
      this.logger,
      (input) => this.endpoint.handle(input),
      201,
      () => this.proofs.currentNonce(),
    );
  }
}
