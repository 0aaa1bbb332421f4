/** OpenID Connect Core §3.1.2.1: the scope that makes an authorization request an OpenID one. */
export const OPENID = 'openid';

/**
 * The OpenID Connect scopes every application knows (Core §5.4), with the approval page's words.
 * `oauth.scopes` may describe them differently; it cannot remove them.
 */
export const OPENID_SCOPES: Readonly<Record<string, string>> = {
  openid: 'Sign you in with your account',
  profile: 'See your name',
  email: 'See your e-mail address',
};

/** Core §5.4: the standard claims each scope asks for (those Tollgate's default mapping can fill). */
export const CLAIMS_BY_SCOPE: Readonly<Record<string, readonly string[]>> = {
  profile: ['name', 'updated_at'],
  email: ['email', 'email_verified'],
};

/** Core §2 and §5.1: what every ID token may carry besides the scope claims. */
export const ID_TOKEN_CLAIMS = [
  'iss',
  'sub',
  'aud',
  'exp',
  'iat',
  'auth_time',
  'acr',
  'amr',
  'nonce',
  'at_hash',
  'azp',
  'sid',
];
