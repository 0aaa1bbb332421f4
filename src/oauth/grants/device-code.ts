import { OAuthError } from '../errors.js';
import { DEVICE_CODE_GRANT, type DeviceCodeRecord } from '../records.js';
import { hashSecret } from '../secrets.js';
import { defineGrant, type GrantServices, userTokens } from './grant.js';

/** RFC 8628 §3.5: what `slow_down` adds to the interval, for this and every later poll. */
const SLOW_DOWN_SECONDS = 5;

/**
 * RFC 8628 §3.4–3.5: the device polls with its device code until the user answers; an approved
 * code is redeemed exactly once (the redemption and the new tokens commit together).
 */
export const deviceCodeGrant = defineGrant({
  grantType: DEVICE_CODE_GRANT,
  parameters: { required: ['device_code'], optional: ['resource'] },
  async handle({ client, params }, services) {
    const id = hashSecret(params.device_code);
    const stored = await services.store.deviceCodes.find(id);
    if (!stored || stored.clientId !== client.id) {
      throw OAuthError.invalidGrant('The device code is invalid.', 'unknown device code or other client');
    }
    if (stored.status === 'redeemed') throw used();
    if (stored.expiresAt <= services.clock.now().toISOString()) throw OAuthError.expiredToken();
    if (stored.status === 'denied') throw OAuthError.accessDenied();
    if (stored.status === 'pending') return poll(stored, services);

    const issued = await services.issuer.issue(
      userTokens(services, client, stored.userId, stored.scopes, params.resource ?? null),
      // Of parallel polls after approval, one marks the code redeemed; the others save nothing.
      ({ store, accessTokenId }) => store.deviceCodes.consume(id, accessTokenId),
    );
    if (!issued) throw used();
    return issued.response;
  },
});

/** A poll of a code still waiting for the user: `authorization_pending`, or `slow_down` if too soon. */
async function poll(stored: DeviceCodeRecord, services: GrantServices): Promise<never> {
  const now = services.clock.now();
  const last = stored.lastPolledAt;
  const tooSoon = last !== null && now.getTime() - Date.parse(last) < stored.intervalSeconds * 1000;
  const interval = stored.intervalSeconds + (tooSoon ? SLOW_DOWN_SECONDS : 0);
  const recorded = await services.store.deviceCodes.recordPoll(stored.id, last, now.toISOString(), interval);
  // Not recorded: another poll came in since this one read the code, both within one interval.
  if (tooSoon || !recorded) throw OAuthError.slowDown();
  throw OAuthError.authorizationPending();
}

function used(): OAuthError {
  return OAuthError.invalidGrant('The device code has already been used.');
}
