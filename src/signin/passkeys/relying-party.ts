import type { TollgateConfig } from '../../core/config.js';

/** Who the passkeys belong to (WebAuthn's relying party) and where assertions may come from. */
export interface RelyingParty {
  id: string;
  name: string;
  origins: string[];
}

/** `signin.passkeys.rpId`/`origins`, else the host name and origin of `app.url`. */
export function relyingParty(config: TollgateConfig): RelyingParty {
  const { rpId, rpName, origins } = config.signin.passkeys;
  const url = new URL(config.app.url);
  return {
    id: rpId || url.hostname,
    name: rpName || config.app.name,
    origins: origins.length > 0 ? origins : [url.origin],
  };
}
