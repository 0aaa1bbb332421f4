export { authenticate, DEFAULT_GUARD, redirectIfAuthenticated } from './authenticate.js';
export { csrfToken, currentUser, login, logout, requireSession } from './context.js';
export { CREDENTIALS_MISMATCH, LoginController } from './controllers/login-controller.js';
export { RegisterController } from './controllers/register-controller.js';
export { CSRF_MISMATCH, CsrfExceptions, csrfExcept, verifyCsrf } from './csrf.js';
export { type Guard, Guards, sessionGuard } from './guards.js';
export { sameSitePath } from './intended.js';
export {
  type AuthOptions,
  AuthOptionsKey,
  LoginRateLimiterKey,
  type ResolvedAuthOptions,
} from './options.js';
export { hashPassword, verifyPassword } from './password.js';
export { authProvider } from './provider.js';
export { RateLimiter } from './rate-limiter.js';
export { hashSessionId, randomToken, Session, type SessionPayload, tokensMatch } from './session.js';
export { SessionStore } from './session-store.js';
export { type SessionCookieOptions, sessionCookieOptions, startSession } from './start-session.js';
export { User, type UserModel } from './user.js';
export { type NewUserInput, UserModelKey, Users } from './users.js';
