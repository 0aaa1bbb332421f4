import { OAuthError } from '../errors.js';
import { checkClientMetadata, type MetadataLimits } from '../registration/client-metadata.js';
import type { Scopes } from '../scopes.js';
import type { NewClient } from '../stores/contracts.js';

/** The grants a metadata-document client may use: it has no secret, so the code flow and refresh. */
const DOCUMENT_GRANTS: readonly string[] = ['authorization_code', 'refresh_token'];

/** Why a document is refused; the description is meant for the client's developer. */
export function documentError(clientId: string, reason: string): OAuthError {
  return new OAuthError(
    'invalid_client',
    `The client metadata document at ${clientId} cannot be used: ${reason}`,
    {
      detail: `client id metadata document ${clientId}: ${reason}`,
    },
  );
}

/**
 * draft-ietf-oauth-client-id-metadata-document §4: the fetched document as a client. It must be
 * a JSON object whose `client_id` is the URL it was fetched from, with no shared secret
 * (`client_secret`, a secret-based `token_endpoint_auth_method`): a document is public, so the
 * client is public (`none`, PKCE required; absent means `none`). The rest is RFC 7591 metadata,
 * checked as a dynamic registration is; `scope`, if given, limits the client to the scopes this
 * server defines among them. Its name defaults to the document's host.
 */
export function documentClient(clientId: string, body: string, limits: MetadataLimits): NewClient {
  let document: unknown;
  try {
    document = JSON.parse(body);
  } catch {
    throw documentError(clientId, 'it is not JSON.');
  }
  if (typeof document !== 'object' || document === null || Array.isArray(document)) {
    throw documentError(clientId, 'it is not a JSON object.');
  }
  const fields = document as Record<string, unknown>;
  if (fields.client_id !== clientId) {
    throw documentError(clientId, 'its client_id is not the URL it was fetched from.');
  }
  if (fields.client_secret !== undefined || fields.client_secret_expires_at !== undefined) {
    throw documentError(clientId, 'a metadata document may not carry a client secret.');
  }
  const authMethod = fields.token_endpoint_auth_method ?? 'none';
  if (authMethod !== 'none') {
    throw documentError(clientId, 'its token_endpoint_auth_method must be none (a public client).');
  }
  const grants = fields.grant_types ?? ['authorization_code'];
  if (!Array.isArray(grants) || !grants.every((grant) => DOCUMENT_GRANTS.includes(grant))) {
    throw documentError(clientId, 'its grant_types may only name authorization_code and refresh_token.');
  }
  let metadata: ReturnType<typeof checkClientMetadata>;
  try {
    metadata = checkClientMetadata(
      {
        ...fields,
        client_name: fields.client_name ?? new URL(clientId).host,
        token_endpoint_auth_method: 'none',
        scope: undefined,
      },
      limits,
    );
  } catch (error) {
    throw error instanceof OAuthError ? documentError(clientId, error.description) : error;
  }
  if (!metadata.grantTypes.includes('authorization_code')) {
    throw documentError(clientId, 'its grant_types must include authorization_code.');
  }
  return {
    id: clientId,
    userId: null,
    name: metadata.clientName,
    secretHash: null,
    redirect: metadata.redirectUris.join(','),
    personalAccessClient: false,
    passwordClient: false,
    firstParty: false,
    allowedScopes: typeof fields.scope === 'string' ? knownScopes(fields.scope, limits.scopes) : null,
    grantTypes: metadata.grantTypes,
    resourceServer: false,
    requirePushedAuthorizationRequests: false,
  };
}

function knownScopes(scope: string, scopes: Scopes): string[] {
  return scope.split(' ').filter((name) => name !== '' && scopes.has(name) && name !== '*');
}
