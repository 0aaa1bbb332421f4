/** The OAuth domain records, free of any storage detail. Times are ISO-8601 strings. */

export interface ClientRecord {
  id: string;
  userId: number | null;
  name: string;
  /** SHA-256 of the secret; null for a public client. */
  secretHash: string | null;
  redirect: string;
  personalAccessClient: boolean;
  passwordClient: boolean;
  revoked: boolean;
  createdAt: string;
  updatedAt: string;
}

export interface AccessTokenRecord {
  /** The JWT's `jti`. */
  id: string;
  /** Null for a client_credentials token. */
  userId: number | null;
  clientId: string;
  /** Set for personal access tokens. */
  name: string | null;
  scopes: string[];
  revoked: boolean;
  createdAt: string;
  updatedAt: string;
  expiresAt: string;
  /** The `kid` of the key that signed it; null or absent for tokens issued before kids were recorded. */
  kid?: string | null;
}

/** A stored access token with what the protection layer needs to know about its client. */
export interface AccessTokenWithClient extends AccessTokenRecord {
  client: ClientRecord;
}

export interface RefreshTokenRecord {
  /** SHA-256 of the refresh token. */
  id: string;
  accessTokenId: string;
  familyId: string;
  revoked: boolean;
  createdAt: string;
  expiresAt: string;
}

export interface AuthCodeRecord {
  /** SHA-256 of the code. */
  id: string;
  userId: number;
  clientId: string;
  scopes: string[];
  redirectUri: string;
  codeChallenge: string | null;
  codeChallengeMethod: 'S256' | 'plain' | null;
  revoked: boolean;
  accessTokenId: string | null;
  createdAt: string;
  expiresAt: string;
}

/** Passport's client kinds, derived from the flags. */
export function isPublicClient(client: ClientRecord): boolean {
  return client.secretHash === null;
}

export function isFirstPartyClient(client: ClientRecord): boolean {
  return client.personalAccessClient || client.passwordClient;
}

/** Which grants a client may use (Passport's `Client::handlesGrant`). */
export function clientHandlesGrant(client: ClientRecord, grantType: string): boolean {
  switch (grantType) {
    case 'authorization_code':
    case 'implicit':
      return !isFirstPartyClient(client);
    case 'personal_access':
      return client.personalAccessClient && !isPublicClient(client);
    case 'password':
      return client.passwordClient;
    case 'client_credentials':
      return !isPublicClient(client);
    default:
      return true;
  }
}
