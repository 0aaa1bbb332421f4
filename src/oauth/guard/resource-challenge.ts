import type { ErrorResponseHook } from '../../http/error-handler.js';
import { OAuthError } from '../errors.js';
import type { ProtectedResources } from '../protected-resources.js';

/**
 * RFC 9728 §5.1: a protected resource's `Bearer` challenge (401 `invalid_token`, 403
 * `insufficient_scope`) names the resource's metadata in `resource_metadata`, so a client that
 * knows nothing but the API's URL finds the authorization server from its first refused request
 * (what MCP clients do).
 */
export function resourceChallenge(resources: () => ProtectedResources): ErrorResponseHook {
  return (err, c, res) => {
    if (!(err instanceof OAuthError) || (err.code !== 'invalid_token' && err.code !== 'insufficient_scope'))
      return res;
    const challenge = res.headers.get('WWW-Authenticate');
    const resource = /^(Bearer|DPoP)\b/.test(challenge ?? '') ? resources().forPath(c.req.path) : undefined;
    if (!challenge || !resource) return res;
    const parameter = `resource_metadata="${resource.metadataUrl}"`;
    res.headers.set(
      'WWW-Authenticate',
      challenge === 'Bearer' ? `Bearer ${parameter}` : `${challenge}, ${parameter}`,
    );
    return res;
  };
}
