/**
 * `tollgate/auth`: users, sessions, CSRF and the login pages. Register `authProvider()`; read the
 * signed-in user with `currentUser(c)`.
 */

export { authMethodsOf } from './auth-time.js';
export { authConfig } from './config.js';
export { csrfToken, currentUser, login, logout, requireSession } from './context.js';
export { csrfExcept } from './csrf.js';
export { LoggedOut, Registered, RegistrationWithTakenEmail, SessionsEnded, SignedIn } from './events.js';
export { requireFreshAuth, SIGN_IN_AGAIN } from './fresh-auth.js';
export type { Guard } from './guards.js';
export { Guards } from './guards.js';
export { sameSitePath } from './intended.js';
export { LoginThrottle, waitMessage } from './login-throttle.js';
export type { AuthOptions, ResolvedAuthOptions } from './options.js';
export { AuthOptionsKey } from './options.js';
export { RememberDeviceField } from './pages/remember-device-field.js';
export { hashPassword, verifyPassword } from './password.js';
export { authProvider } from './provider.js';
export type {
  DeviceMemory,
  LoginPageAddition,
  PendingLogin,
  SecondFactor,
  SignInAlternative,
} from './second-factor.js';
export {
  awaitSecondFactor,
  forgetPendingLogin,
  LoginSteps,
  PENDING_LOGIN_SECONDS,
  pendingLogin,
  REMEMBER_DEVICE_FIELD,
} from './second-factor.js';
export { SessionStore } from './session-store.js';
export type { TableUsersOptions } from './table-users.js';
export { tableUsers } from './table-users.js';
export type { UserRow, UsersTable } from './tables.js';
export type { UserModel } from './user.js';
export { User } from './user.js';
export type { UserDeletionGuard } from './user-deletion-guards.js';
export { UserDeletionGuards, UserDeletionRefused } from './user-deletion-guards.js';
export type { NewUserInput } from './users.js';
export { UserModelKey, Users } from './users.js';
export type { UserRecord, UsersProvider } from './users-provider.js';
export { formFields } from './validation.js';
