import { InjectionKey } from '../core/container.js';
import type { UsersProviderInput } from './users-provider.js';

export interface AuthOptions {
  /** Where users land after login, and where `guest` sends signed-in users. */
  home?: string;
  /** Serve `GET/POST /register` (default true). */
  registration?: boolean;
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
    dashboardPlaceholder: options.dashboardPlaceholder ?? true,
  };
}

export const AuthOptionsKey = new InjectionKey<ResolvedAuthOptions>('AuthOptions');
