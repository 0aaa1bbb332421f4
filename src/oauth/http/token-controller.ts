import type { Context } from 'hono';
import { LoggerKey } from '../../core/keys.js';
import type { Logger } from '../../core/logger.js';
import { DpopProofs } from '../dpop/dpop-proofs.js';
import { TokenEndpoint } from '../grants/token-endpoint.js';
import { answerFormEndpoint } from './respond.js';

/** `POST /oauth/token` (RFC 6749 §3.2). */
export class TokenController {
  static inject = [TokenEndpoint, LoggerKey, DpopProofs] as const;

  constructor(
    private readonly endpoint: TokenEndpoint,
    private readonly logger: Logger,
    private readonly proofs: DpopProofs,
  ) {}

  issue(c: Context): Promise<Response> {
    return answerFormEndpoint(
      c,
      this.logger,
      (input) => this.endpoint.handle(input),
      200,
      () => this.proofs.currentNonce(),
    );
  }
}
