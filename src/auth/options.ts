import { InjectionKey } from '../core/container.js';
import type { RateLimiter } from './rate-limiter.js';
import type { UsersProviderInput } from './users-provider.js';

export interface AuthOptions {
  /** Where users land after login or registration, and where `guest` sends signed-in users. */
  home?: string;
  /** Serve `GET/POST /register` (default true). */
  registration?: boolean;
  /** Failed logins allowed per e-mail + IP per minute (default 5). */
  maxLoginAttempts?: number;
  /**
   * Register a minimal `/dashboard` page when, at boot, no route is named `dashboard` or has that
   * path (default true). Declare your own dashboard in a provider's `register()` to replace it.
   */
  dashboardPlaceholder?: boolean;
  /**
   * Where users live (default: Tollgate's `users` table). `tableUsers({ table, columns, verifyPassword })`
   * for a table of yours, or any `UsersProvider`; Tollgate's users migration then does not run.
   */
  users?: UsersProviderInput;
}

export type ResolvedAuthOptions = Required<Omit<AuthOptions, 'users'>>;

export function resolveAuthOptions(options: AuthOptions): ResolvedAuthOptions {
  return {
    home: options.home ?? '/dashboard',
    registration: options.registration ?? true,
    maxLoginAttempts: options.maxLoginAttempts ?? 5,
    dashboardPlaceholder: options.dashboardPlaceholder ?? true,
  };
}

export const AuthOptionsKey = new InjectionKey<ResolvedAuthOptions>('AuthOptions');
/** The failed-login counter, one per application (in memory). */
export const LoginRateLimiterKey = new InjectionKey<RateLimiter>('LoginRateLimiter');
