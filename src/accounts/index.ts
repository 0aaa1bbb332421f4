/**
 * `tollgate/accounts`: the account half — e-mail verification (the `verified` middleware). Register
 * `accountsProvider()` after `authProvider()` and `mailProvider()`.
 */

export type { AccountSection } from './account/account-sections.js';
export { AccountSections } from './account/account-sections.js';
export { changeEmailMail } from './account/change-email-mail.js';
export { deviceName } from './account/device-name.js';
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
  RecoveryCodesRegenerated,
  SignedInFromNewDevice,
  TwoFactorDisabled,
  TwoFactorEnabled,
  TwoFactorLocked,
} from './events.js';
export type { DeviceSighting } from './known-devices.js';
export { KnownDevices } from './known-devices.js';
export type { AccountDeletedData } from './notifications/account-deleted.js';
export { accountDeletedMail, accountDeletedNotification } from './notifications/account-deleted.js';
export type { CredentialCreatedData } from './notifications/credential-created.js';
export { credentialCreatedMail, credentialCreatedNotification } from './notifications/credential-created.js';
export type { EmailChangedData } from './notifications/email-changed.js';
export { emailChangedMail, emailChangedNotification } from './notifications/email-changed.js';
export type { NotificationKind } from './notifications/kinds.js';
export { MONEY_NOTIFICATIONS, NOTIFICATION_KINDS, SECURITY_NOTIFICATIONS } from './notifications/kinds.js';
export type { NewDeviceData } from './notifications/new-device.js';
export { newDeviceMail, newDeviceNotification } from './notifications/new-device.js';
export type { NoticeMailParts } from './notifications/notice-mail.js';
export { describeOrigin, noticeMail } from './notifications/notice-mail.js';
export type { Notice, NoticeMail, Notification } from './notifications/notification.js';
export { defineNotification } from './notifications/notification.js';
export type { NotificationsDeps } from './notifications/notifications.js';
export { Notifications } from './notifications/notifications.js';
export type { PasswordChangedData } from './notifications/password-changed.js';
export { passwordChangedMail, passwordChangedNotification } from './notifications/password-changed.js';
export type { PaymentActionRequiredData } from './notifications/payment-action-required.js';
export {
  paymentActionRequiredMail,
  paymentActionRequiredNotification,
} from './notifications/payment-action-required.js';
export type { PaymentFailedData } from './notifications/payment-failed.js';
export { paymentFailedMail, paymentFailedNotification } from './notifications/payment-failed.js';
export type { ReceiptData } from './notifications/receipt.js';
export { receiptMail, receiptNotification } from './notifications/receipt.js';
export type { SessionsEndedData } from './notifications/sessions-ended.js';
export { sessionsEndedMail, sessionsEndedNotification } from './notifications/sessions-ended.js';
export type { SubscriptionCancelledData } from './notifications/subscription-cancelled.js';
export {
  subscriptionCancelledMail,
  subscriptionCancelledNotification,
} from './notifications/subscription-cancelled.js';
export type { TrialEndingData } from './notifications/trial-ending.js';
export { trialEndingMail, trialEndingNotification } from './notifications/trial-ending.js';
export { scanTrialsEnding, scheduleTrialNotices } from './notifications/trial-scan.js';
export type { TwoFactorNoticeData } from './notifications/two-factor-notices.js';
export {
  recoveryCodesRegeneratedNotification,
  twoFactorDisabledNotification,
  twoFactorEnabledNotification,
  twoFactorLockedNotification,
} from './notifications/two-factor-notices.js';
export type { PasswordResetDeps, ResetOutcome } from './password-reset/password-reset.js';
export { PasswordReset } from './password-reset/password-reset.js';
export { resetPasswordMail } from './password-reset/reset-password-mail.js';
export { accountsProvider } from './provider.js';
export { takenEmailMail } from './registration/taken-email-mail.js';
export { requestOrigin } from './request-origin.js';
export type { AccountTokenRow, AccountTokensTable } from './tables.js';
export type { CodeCheck, TwoFactorOptions, TwoFactorState } from './two-factor/two-factor.js';
export { TwoFactor } from './two-factor/two-factor.js';
export { EmailVerification, verifiedAt } from './verification/email-verification.js';
export { ensureEmailVerified, NOT_VERIFIED } from './verification/verified-middleware.js';
export { verifyEmailMail } from './verification/verify-email-mail.js';
