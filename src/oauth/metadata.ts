import type { TollgateConfig } from '../core/config.js';
import { DPOP_ALGORITHMS } from './dpop/proof.js';
import { ASSERTION_ALGORITHMS } from './grants/client-assertions.js';
import { issuerOf } from './jwt/access-token-signer.js';
import { protectedResources } from './protected-resources.js';
import { DEVICE_CODE_GRANT } from './records.js';

/** RFC 8414 §2 authorization server metadata, from configuration. */
export function authorizationServerMetadata(
  config: TollgateConfig,
  grantTypes: readonly string[],
  scopes: readonly string[],
): Record<string, unknown> {
  const issuer = issuerOf(config);
  const implicit = config.oauth.implicitGrant;
  return {
    issuer,
    authorization_endpoint: `${issuer}/oauth/authorize`,
    token_endpoint: `${issuer}/oauth/token`,
    jwks_uri: `${issuer}/oauth/jwks`,
    revocation_endpoint: `${issuer}/oauth/revoke`,
    introspection_endpoint: `${issuer}/oauth/introspect`,
    // RFC 8628 §4.
    ...(grantTypes.includes(DEVICE_CODE_GRANT)
      ? { device_authorization_endpoint: `${issuer}/oauth/device/code` }
      : {}),
    // RFC 8414 §2 / RFC 7591 §3: only when dynamic registration is open to someone.
    ...(config.oauth.registration !== 'closed' ? { registration_endpoint: `${issuer}/oauth/register` } : {}),
    scopes_supported: [...scopes],
    response_types_supported: implicit ? ['code', 'token'] : ['code'],
    // OAuth 2.0 Form Post Response Mode §2.
    response_modes_supported: implicit ? ['query', 'fragment', 'form_post'] : ['query', 'form_post'],
    grant_types_supported: implicit ? [...grantTypes, 'implicit'] : [...grantTypes],
    // RFC 7523 §2.2: private_key_jwt with the keys a client registered (jwks, jwks_uri).
    token_endpoint_auth_methods_supported: [
      'client_secret_basic',
      'client_secret_post',
      'private_key_jwt',
      'none',
    ],
    token_endpoint_auth_signing_alg_values_supported: [...ASSERTION_ALGORITHMS],
    revocation_endpoint_auth_methods_supported: ['client_secret_basic', 'client_secret_post', 'none'],
    introspection_endpoint_auth_methods_supported: ['client_secret_basic', 'client_secret_post'],
    code_challenge_methods_supported: config.oauth.allowPlainPkce ? ['S256', 'plain'] : ['S256'],
    // RFC 9126 §5.
    pushed_authorization_request_endpoint: `${issuer}/oauth/par`,
    require_pushed_authorization_requests: config.oauth.requirePushedAuthorizationRequests,
    // RFC 9449 §5.1: the algorithms a DPoP proof may be signed with.
    dpop_signing_alg_values_supported: [...DPOP_ALGORITHMS],
    // RFC 9207 §3: every authorization response carries `iss`.
    authorization_response_iss_parameter_supported: true,
    // draft-ietf-oauth-client-id-metadata-document §5: `https` client ids name a metadata document.
    ...(config.oauth.clientIdMetadataDocuments.enabled
      ? { client_id_metadata_document_supported: true }
      : {}),
    // RFC 9728 §4: the APIs this server issues tokens for, when the application names them.
    ...(config.oauth.protectedResources.length
      ? { protected_resources: protectedResources(config).map((entry) => entry.metadata.resource) }
      : {}),
  };
}
