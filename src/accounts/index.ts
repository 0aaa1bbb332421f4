/**
 * `tollgate/accounts`: the account half — e-mail verification (the `verified` middleware). Register
 * `accountsProvider()` after `authProvider()` and `mailProvider()`.
 */

export type { RedeemFailure } from './account-tokens.js';
export { AccountTokens } from './account-tokens.js';
export type { AccountsConfig } from './config.js';
export { accountsConfig } from './config.js';
export type { RequestOrigin } from './events.js';
export {
  AccountDeleted,
  EmailChanged,
  OtherSessionsEnded,
  PasswordChanged,
  SignedInFromNewDevice,
} from './events.js';
export type { PasswordResetDeps, ResetOutcome } from './password-reset/password-reset.js';
export { PasswordReset } from './password-reset/password-reset.js';
export { resetPasswordMail } from './password-reset/reset-password-mail.js';
export { accountsProvider } from './provider.js';
export { takenEmailMail } from './registration/taken-email-mail.js';
export { requestOrigin } from './request-origin.js';
export type { AccountTokenRow, AccountTokensTable } from './tables.js';
export { EmailVerification, verifiedAt } from './verification/email-verification.js';
export { ensureEmailVerified, NOT_VERIFIED } from './verification/verified-middleware.js';
export { verifyEmailMail } from './verification/verify-email-mail.js';
