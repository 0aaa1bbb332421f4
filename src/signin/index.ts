/**
 * `tollgate/signin`: sign-in methods beyond the password — passkeys, upstream identity providers —
 * and the rule that a user keeps at least one. Register `signinProvider()` after `authProvider()`
 * and `accountsProvider()`.
 */

export type { SigninConfig } from './config.js';
export { signinConfig } from './config.js';
export { signinMigrations } from './migrations.js';
export type { PasskeysTable } from './passkeys/tables.js';
export { signinProvider } from './provider.js';
export type { SignInMethod } from './sign-in-methods.js';
export { LastSignInMethod, SignInMethods } from './sign-in-methods.js';
export type { LinkedIdentity } from './upstream/linked-identities.js';
export { LinkedIdentities } from './upstream/linked-identities.js';
export type { UpstreamIdentity } from './upstream/upstream-client.js';
export type { UpstreamConfig, UpstreamProviderSettings } from './upstream/upstream-config.js';
export { UpstreamLinked, UpstreamUnlinked } from './upstream/upstream-events.js';
