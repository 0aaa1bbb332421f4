import type { TollgateConfig } from '../../core/config.js';
import { ConfigKey } from '../../core/keys.js';
import { OAuthError } from '../errors.js';
import { ClientAuthenticator } from '../grants/client-authenticator.js';
import type { TokenInput } from '../grants/token-endpoint.js';
import { issuerOf } from '../jwt/access-token-signer.js';
import { clientHandlesGrant, DEVICE_CODE_GRANT } from '../records.js';
import { checkClientScopes } from '../rules/check-client-scopes.js';
import { Scopes } from '../scopes.js';
import { DeviceAuthorizations } from './device-authorizations.js';

/** The device authorization response (RFC 8628 §3.2). */
export interface DeviceAuthorizationResponse {
  device_code: string;
  user_code: string;
  verification_uri: string;
  verification_uri_complete: string;
  expires_in: number;
  interval: number;
}

/** Where users enter the code, relative to the issuer. */
export const VERIFICATION_PATH = '/oauth/device';

/**
 * `POST /oauth/device/code` without HTTP (RFC 8628 §3.1): the client authenticates as at the token
 * endpoint (a public client by `client_id`), must have the device grant, and may ask for scopes
 * within its limit.
 */
export class DeviceAuthorizationEndpoint {
  static inject = [ClientAuthenticator, Scopes, DeviceAuthorizations, ConfigKey] as const;
  readonly #verificationUri: string;

  constructor(
    private readonly clients: ClientAuthenticator,
    private readonly scopes: Scopes,
    private readonly authorizations: DeviceAuthorizations,
    config: TollgateConfig,
  ) {
    this.#verificationUri = `${issuerOf(config)}${VERIFICATION_PATH}`;
  }

  async handle(input: TokenInput): Promise<DeviceAuthorizationResponse> {
    const params = await input.form();
    const client = await this.clients.authenticate({ params, authorization: input.authorization });
    if (!clientHandlesGrant(client, DEVICE_CODE_GRANT))
      throw OAuthError.unauthorizedClient('This client may not use the device authorization grant.');
    const scopes = this.scopes.validate(Scopes.parse(params.scope), { allowAll: false });
    checkClientScopes(client, scopes);
    const { deviceCode, userCode, record } = await this.authorizations.start(client, scopes);
    const expiresIn = Math.round((Date.parse(record.expiresAt) - Date.parse(record.createdAt)) / 1000);
    return {
      device_code: deviceCode,
      user_code: userCode,
      verification_uri: this.#verificationUri,
      verification_uri_complete: `${this.#verificationUri}?user_code=${userCode}`,
      expires_in: expiresIn,
      interval: record.intervalSeconds,
    };
  }
}
