import type { TollgateConfig } from '../../core/config.js';
import { REQUEST_OBJECT_ALGORITHMS } from '../authorization/request-object-algorithms.js';
import { issuerOf } from '../jwt/access-token-signer.js';
import { authorizationServerMetadata } from '../metadata.js';
import { ACR_VALUES_SUPPORTED } from './amr.js';
import { CLAIMS_BY_SCOPE, ID_TOKEN_CLAIMS } from './scopes.js';

/**
 * OpenID Connect Discovery 1.0 §3: the RFC 8414 document plus what an OpenID client reads — the
 * userinfo endpoint, the ID token's algorithm, subject types, claims and prompt values.
 */
export function openIdConfiguration(
  config: TollgateConfig,
  grantTypes: readonly string[],
  scopes: readonly string[],
): Record<string, unknown> {
  const issuer = issuerOf(config);
  return {
    ...authorizationServerMetadata(config, grantTypes, scopes),
    userinfo_endpoint: `${issuer}/oauth/userinfo`,
    // RP-Initiated Logout §2.1, Back-Channel Logout §2.1 (`sid` in ID tokens and logout tokens).
    end_session_endpoint: `${issuer}/oauth/logout`,
    backchannel_logout_supported: true,
    backchannel_logout_session_supported: true,
    subject_types_supported: ['public'],
    id_token_signing_alg_values_supported: [config.oauth.signingAlgorithm],
    // Core §5.3.2: for clients registered with userinfo_signed_response_alg.
    userinfo_signing_alg_values_supported: [config.oauth.signingAlgorithm],
    claims_supported: [...new Set([...ID_TOKEN_CLAIMS, ...Object.values(CLAIMS_BY_SCOPE).flat()])],
    prompt_values_supported: ['none', 'login', 'consent'],
    // Core §3.1.2.1 `acr_values`: one factor or two (see docs/sign-in.md); the ID token says which.
    acr_values_supported: [...ACR_VALUES_SUPPORTED],
    // Core §5.5: claims asked for by name, for the userinfo response and the ID token.
    claims_parameter_supported: true,
    // Core §6: request objects by value and by reference (fetched; no registration of request_uris).
    request_parameter_supported: true,
    request_uri_parameter_supported: true,
    require_request_uri_registration: false,
    request_object_signing_alg_values_supported: [...REQUEST_OBJECT_ALGORITHMS],
  };
}
