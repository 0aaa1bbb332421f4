import { type ConfigSlice, envBool, envInt } from '../core/config.js';
import { ConfigurationError } from '../core/errors.js';
import { parsePolicy, type RateLimitPolicy } from '../rate-limits/policy.js';
import { type NotificationKind, parseKinds } from './notifications/kinds.js';

export interface AccountsConfig {
  verification: {
    /**
     * Unverified users may not approve OAuth clients (the `oauth.approve` middleware group) or
     * subscribe (`billing.subscribe`): both answer with the "verify your e-mail" page (403 JSON).
     */
    required: boolean;
    /** How long a verification link works (minutes). */
    expiresMinutes: number;
    /** "Resend the link", per user: a few mails an hour at most. */
    resend: RateLimitPolicy;
  };
  registration: {
    /** "Someone tried to register with your address" mails, per address (beyond it, none). */
    takenEmailNotice: RateLimitPolicy;
  };
  passwordReset: {
    /** How long a reset link works (minutes). */
    expiresMinutes: number;
    /** A reset also revokes the tokens of every application the user authorized (their refresh tokens). */
    revokeRefreshTokens: boolean;
    /** Reset requests per address (beyond it no mail is sent, and the answer stays the same). */
    email: RateLimitPolicy;
    /** Reset requests per client address (429 beyond it). */
    address: RateLimitPolicy;
    /**
     * The least time (ms) a reset request takes to answer: queuing the mail for an address with an
     * account must not make its answer measurably slower than one for an unknown address.
     */
    answerMs: number;
  };
  twoFactor: {
    /**
     * `all`: every user must set up an authenticator app (after the password they reach only the
     * account page until they do, and cannot turn it off). `none`: each user chooses. For a role,
     * `TwoFactor.requireWhen`.
     */
    required: 'none' | 'all';
    /** Second-factor codes per user (after a right password): throttled like passwords. */
    throttle: RateLimitPolicy;
    /** Wrong codes in a row that lock the second factor (and mail the user). */
    lockAfter: number;
    /** How long a lock lasts (minutes). */
    lockMinutes: number;
    /** How recent a sign-in the account page's 2FA changes need (seconds, `fresh-auth`). */
    freshAuthSeconds: number;
  };
  notifications: {
    /**
     * The kinds not sent (`NOTIFICATIONS_OFF=receipt,new-device`). Operator configuration only:
     * a user cannot turn off a security notice.
     */
    off: NotificationKind[];
    /** The "trial ends soon" notice goes this many days before the trial's end. */
    trialEndingDays: number;
    /**
     * How often the reference service looks for trials about to end (minutes), for providers that
     * send no such webhook (Braintree). 0: never.
     */
    trialScanMinutes: number;
    /** The application's billing page (update the card, resume): the money notices link to it. */
    billingPath: string;
    /** The application's payment confirmation page; `{id}` is the payment's id. */
    paymentPath: string;
  };
}

declare module '../core/config.js' {
  interface TollgateConfig {
    accounts: AccountsConfig;
  }
}

export const accountsConfig: ConfigSlice<'accounts'> = {
  defaults: {
    accounts: {
      verification: {
        required: false,
        expiresMinutes: 24 * 60,
        resend: { points: 3, durationSeconds: 3600 },
      },
      registration: {
        takenEmailNotice: { points: 3, durationSeconds: 3600 },
      },
      passwordReset: {
        expiresMinutes: 60,
        revokeRefreshTokens: true,
        email: { points: 3, durationSeconds: 3600 },
        address: { points: 20, durationSeconds: 3600 },
        answerMs: 250,
      },
      twoFactor: {
        required: 'none',
        throttle: { points: 5, durationSeconds: 60, maxBlockSeconds: 900 },
        lockAfter: 10,
        lockMinutes: 60,
        freshAuthSeconds: 600,
      },
      notifications: {
        off: [],
        trialEndingDays: 3,
        trialScanMinutes: 60,
        billingPath: '/dashboard/billing',
        paymentPath: '/billing/payment/{id}',
      },
    },
  },
  fromEnv: (env) => ({
    accounts: {
      verification: {
        required: envBool(env.ACCOUNTS_VERIFICATION_REQUIRED),
        expiresMinutes: envInt(env.ACCOUNTS_VERIFICATION_EXPIRES, 'ACCOUNTS_VERIFICATION_EXPIRES'),
        resend: parsePolicy(env.THROTTLE_VERIFICATION_RESEND, 'THROTTLE_VERIFICATION_RESEND'),
      },
      registration: {
        takenEmailNotice: parsePolicy(env.THROTTLE_REGISTRATION_NOTICE, 'THROTTLE_REGISTRATION_NOTICE'),
      },
      passwordReset: {
        expiresMinutes: envInt(env.ACCOUNTS_PASSWORD_RESET_EXPIRES, 'ACCOUNTS_PASSWORD_RESET_EXPIRES'),
        revokeRefreshTokens: envBool(env.ACCOUNTS_PASSWORD_RESET_REVOKE_TOKENS),
        email: parsePolicy(env.THROTTLE_PASSWORD_RESET_EMAIL, 'THROTTLE_PASSWORD_RESET_EMAIL'),
        address: parsePolicy(env.THROTTLE_PASSWORD_RESET_ADDRESS, 'THROTTLE_PASSWORD_RESET_ADDRESS'),
        answerMs: envInt(env.ACCOUNTS_PASSWORD_RESET_ANSWER_MS, 'ACCOUNTS_PASSWORD_RESET_ANSWER_MS'),
      },
      twoFactor: {
        required: twoFactorRequired(env.TWO_FACTOR_REQUIRED),
        throttle: parsePolicy(env.THROTTLE_TWO_FACTOR, 'THROTTLE_TWO_FACTOR'),
        lockAfter: envInt(env.TWO_FACTOR_LOCK_AFTER, 'TWO_FACTOR_LOCK_AFTER'),
        lockMinutes: envInt(env.TWO_FACTOR_LOCK_MINUTES, 'TWO_FACTOR_LOCK_MINUTES'),
        freshAuthSeconds: envInt(env.FRESH_AUTH_SECONDS, 'FRESH_AUTH_SECONDS'),
      },
      notifications: {
        off: parseKinds(env.NOTIFICATIONS_OFF, 'NOTIFICATIONS_OFF'),
        trialEndingDays: envInt(env.NOTIFICATIONS_TRIAL_ENDING_DAYS, 'NOTIFICATIONS_TRIAL_ENDING_DAYS'),
        trialScanMinutes: envInt(env.NOTIFICATIONS_TRIAL_SCAN_MINUTES, 'NOTIFICATIONS_TRIAL_SCAN_MINUTES'),
      },
    },
  }),
};

function twoFactorRequired(value: string | undefined): 'none' | 'all' | undefined {
  if (value === undefined || value === '') return undefined;
  if (value === 'none' || value === 'all') return value;
  throw new ConfigurationError(`TWO_FACTOR_REQUIRED must be "none" or "all", got "${value}".`);
}
