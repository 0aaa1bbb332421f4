import * as oauth from 'oauth4webapi';
import { discover, fetchUser, type SignedIn } from './client.js';

/** What the user needs to approve the device (RFC 8628 §3.3). */
export interface DevicePrompt {
  verificationUri: string;
  /** The same page with the code filled in (for a QR code or a link). */
  verificationUriComplete: string | undefined;
  userCode: string;
  expiresIn: number;
}

export interface DeviceFlowOptions {
  /** The service's base URL, which is also its OAuth issuer (RFC 8414 discovery). */
  baseUrl: string;
  clientId: string;
  /** Omit for a public client (`tollgate client --device`). */
  clientSecret?: string;
  scope?: string;
  /** Shows the user where to go and the code to type. */
  show(prompt: DevicePrompt): void | Promise<void>;
}

/** RFC 8628 §3.5: what `slow_down` adds to the interval. */
const SLOW_DOWN_SECONDS = 5;

/**
 * The device authorization grant (RFC 8628) against the service: asks for a user code, shows it,
 * polls the token endpoint every `interval` seconds (5 more after each `slow_down`) until the user
 * answers, then calls `GET /api/user`. Throws oauth4webapi's `ResponseBodyError` with
 * `error: 'access_denied'` when the user denies, `'expired_token'` when nobody answers in time.
 */
export async function deviceSignIn(options: DeviceFlowOptions): Promise<SignedIn> {
  const { issuer, http, as } = await discover(options.baseUrl);
  const client: oauth.Client = { client_id: options.clientId };
  const auth = options.clientSecret ? oauth.ClientSecretBasic(options.clientSecret) : oauth.None();
  const started = await oauth.processDeviceAuthorizationResponse(
    as,
    client,
    await oauth.deviceAuthorizationRequest(as, client, auth, { scope: options.scope ?? '' }, http),
  );
  await options.show({
    verificationUri: started.verification_uri,
    verificationUriComplete: started.verification_uri_complete,
    userCode: started.user_code,
    expiresIn: started.expires_in,
  });
  let interval = started.interval ?? 5;
  for (;;) {
    await new Promise((done) => setTimeout(done, interval * 1000));
    const response = await oauth.deviceCodeGrantRequest(as, client, auth, started.device_code, http);
    try {
      const tokens = await oauth.processDeviceCodeResponse(as, client, response);
      return { user: await fetchUser(issuer, tokens.access_token), scope: tokens.scope };
    } catch (err) {
      if (!(err instanceof oauth.ResponseBodyError)) throw err;
      if (err.error === 'slow_down') interval += SLOW_DOWN_SECONDS;
      else if (err.error !== 'authorization_pending') throw err;
    }
  }
}
