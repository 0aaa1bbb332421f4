/**
 * Raised after an access token is stored (any grant, personal access tokens included). Listeners
 * may prune or revoke the user's other tokens: they run before the response is sent.
 */
export class AccessTokenCreated {
  constructor(
    readonly tokenId: string,
    readonly userId: number | null,
    readonly clientId: string,
  ) {}
}

/**
 * Raised when the token endpoint answers a grant with tokens (after `AccessTokenCreated`), naming
 * the grant type: what operators count tokens by. Not raised for personal access tokens.
 */
export class TokenGranted {
  constructor(
    readonly grantType: string,
    readonly clientId: string,
  ) {}
}

/** Raised after a refresh token is stored, next to the access token it refreshes. */
export class RefreshTokenCreated {
  constructor(
    readonly refreshTokenId: string,
    readonly accessTokenId: string,
  ) {}
}

/** Raised once per access token that becomes revoked: caches of verified tokens drop it. */
export class AccessTokenRevoked {
  constructor(readonly tokenId: string) {}
}

/**
 * Raised when a client is revoked (deleted): every token it holds stops working. `actorId`: the
 * user who deleted it, when one did (an organization's client has no owner to name).
 */
export class ClientRevoked {
  constructor(
    readonly clientId: string,
    readonly actorId: number | null = null,
  ) {}
}

/** Raised when a client's secret is rotated: caches of verified credentials forget the client. */
export class ClientSecretRotated {
  constructor(
    readonly clientId: string,
    /** The user who rotated it, when one did. */
    readonly actorId: number | null = null,
  ) {}
}

/** Raised once when an API key is revoked: the guard of every instance refuses it from then on. */
export class ApiKeyRevoked {
  constructor(
    readonly keyId: string,
    readonly userId: number,
  ) {}
}

/**
 * Raised after a user creates a credential that acts for them — a personal access token, an API
 * key, an OAuth client they own — so they can be told (a stolen session minting a token shows).
 */
export class CredentialCreated {
  constructor(
    readonly kind: 'personal-access-token' | 'api-key' | 'client',
    /** The token's, key's or client's id. */
    readonly id: string,
    readonly userId: number,
    /** The name the user gave it. */
    readonly name: string,
    /** The organization that owns it or that it acts for; null: the user's own. */
    readonly organizationId: number | null = null,
  ) {}
}

/** Raised after a client's settings (name, redirect URIs, …) are changed by its owner or an operator. */
export class ClientUpdated {
  constructor(
    readonly clientId: string,
    /** Its owner; null for an organization's or an operator's client. */
    readonly userId: number | null,
    /** The user who changed it (the owner, or a member managing the organization's clients), when one did. */
    readonly actorId: number | null = null,
  ) {}
}

/** Raised once when a personal access token is revoked by its owner (of two revocations, the one that did it). */
export class PersonalAccessTokenRevoked {
  constructor(
    readonly tokenId: string,
    readonly userId: number,
  ) {}
}

/**
 * Raised once when a user revokes an access token of an application they authorized
 * (`DELETE /oauth/tokens/{id}`; of two revocations at once, the one that did it).
 */
export class AuthorizedTokenRevoked {
  constructor(
    readonly tokenId: string,
    readonly userId: number,
    readonly clientId: string,
  ) {}
}

/** Raised when the user approves a client on the approval page (not when a remembered approval skips it). */
export class ConsentGranted {
  constructor(
    readonly userId: number,
    readonly clientId: string,
    readonly scopes: readonly string[],
  ) {}
}

/** Raised once when the user revokes an application they authorized (every token it held). */
export class ConsentRevoked {
  constructor(
    readonly userId: number,
    readonly clientId: string,
  ) {}
}
