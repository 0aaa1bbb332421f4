import type { Context } from 'hono';
import { LoggerKey } from '../../core/keys.js';
import type { Logger } from '../../core/logger.js';
import { DeviceAuthorizationEndpoint } from '../device/device-authorization-endpoint.js';
import { answerFormEndpoint } from './respond.js';

/** `POST /oauth/device/code` (RFC 8628 §3.1–3.2): errors as at the token endpoint. */
export class DeviceCodeController {
  static inject = [DeviceAuthorizationEndpoint, LoggerKey] as const;

  constructor(
    private readonly endpoint: DeviceAuthorizationEndpoint,
    private readonly logger: Logger,
  ) {}

  issue(c: Context): Promise<Response> {
    return answerFormEndpoint(c, this.logger, (input) => this.endpoint.handle(input));
  }
}
