import { z } from 'zod';
import { hasControlCharacters } from '../../core/text.js';
import { redirectListProblem, redirectShapeProblem } from '../rules/check-redirect-uri.js';
import { ALL_SCOPES, type Scopes } from '../scopes.js';

// Type errors ("The name field must be a string.") come from core/validation's Laravel messages.
const name = z
  .string()
  .trim()
  .min(1, 'The name field is required.')
  .max(255, 'The name field must not be greater than 255 characters.')
  .refine((value) => !hasControlCharacters(value), 'The name field must not contain control characters.');

const redirect = z
  .string()
  .trim()
  .min(1, 'The redirect field is required.')
  .superRefine((value, ctx) => {
    const problem = shapeProblem(value);
    if (problem) ctx.addIssue({ code: 'custom', message: problem });
  });

function shapeProblem(list: string): string | undefined {
  return list
    .split(',')
    .map((uri) => redirectShapeProblem(uri.trim()))
    .find(Boolean);
}

/**
 * The redirects for this kind of client (RFC 8252 §7 for public ones), and not more of them than
 * `maxRedirects`; runs once the fields' own checks passed.
 */
function redirectsFit(publicClient: (data: { confidential?: boolean }) => boolean, maxRedirects: number) {
  return (data: { redirect: string; confidential?: boolean }, ctx: z.RefinementCtx) => {
    if (typeof data.redirect !== 'string' || shapeProblem(data.redirect)) return; // already reported
    const problem =
      data.redirect.split(',').length > maxRedirects
        ? `A client may register at most ${maxRedirects} redirect URLs.`
        : redirectListProblem(data.redirect, { publicClient: publicClient(data) });
    if (problem) ctx.addIssue({ code: 'custom', path: ['redirect'], message: problem });
  };
}

/** The application's scopes, never `*`. */
function scopeList(scopes: Scopes) {
  return z
    .array(z.string({ error: 'Each scope must be a string.' }))
    .max(100, 'The scopes field must not have more than 100 items.')
    .refine(
      (list) => list.every((scope) => scope !== ALL_SCOPES && scopes.has(scope)),
      'The scopes must be scopes this application defines.',
    );
}

/**
 * What a client's limits may name (the application's scopes, the grant types the server knows),
 * and how many redirects it may register (`oauth.maxRedirectsPerClient`).
 */
export interface ClientLimits {
  scopes: Scopes;
  grantTypes: readonly string[];
  maxRedirects: number;
}

function clientFields(limits: ClientLimits) {
  return z.object({
    name,
    redirect,
    confidential: z.boolean().optional(),
    // Limits only narrow what the client may do; null lifts them. Never first_party: a user
    // cannot make their own client skip other users' approval.
    scopes: scopeList(limits.scopes).nullable().optional(),
    grant_types: z
      .array(z.string({ error: 'Each grant type must be a string.' }))
      .refine(
        (list) => list.every((grant) => limits.grantTypes.includes(grant)),
        `The grant types must be among: ${limits.grantTypes.join(', ')}.`,
      )
      .nullable()
      .optional(),
  });
}

/**
 * `POST /oauth/clients`: the redirect is one absolute URL, or several separated by commas;
 * http(s) for confidential clients, and loopback or private-use schemes for public ones.
 */
export function clientSchema(limits: ClientLimits) {
  return clientFields(limits).superRefine(
    redirectsFit((data) => data.confidential === false, limits.maxRedirects),
  );
}

/** `PUT /oauth/clients/{id}`: name, redirect and limits; the client's type stays what it is. */
export function clientUpdateSchema(limits: ClientLimits, publicClient: boolean) {
  return clientFields(limits)
    .omit({ confidential: true })
    .superRefine(redirectsFit(() => publicClient, limits.maxRedirects));
}

/** The longest grace period a rotated client secret may keep: 30 days. */
export const MAX_SECRET_GRACE_SECONDS = 30 * 24 * 3600;

/** `POST /oauth/clients/{id}/secret`: how long the replaced secret keeps working (default 0: not at all). */
export const secretRotationSchema = z.object({
  grace_seconds: z.number().int().min(0).max(MAX_SECRET_GRACE_SECONDS).optional(),
});

/** `POST /oauth/personal-access-tokens`: scopes must be defined by the application, and not `*`. */
export function personalAccessTokenSchema(scopes: Scopes) {
  return z.object({
    name,
    scopes: scopeList(scopes),
    /** Days until it expires; absent or null: `oauth.personalAccessTokenTtlSeconds`. */
    expires_in_days: z.number().int().min(1).max(3650).nullable().optional(),
  });
}

const wholeNumber = (max: number) => z.number().int().min(1).max(max);

/** `POST /api-keys` (and the dashboard's form, once its strings are numbers). */
export function apiKeySchema(scopes: Scopes) {
  return z.object({
    name,
    scopes: scopeList(scopes).optional(),
    expires_in_days: wholeNumber(3650).nullable().optional(),
    rate_limit_per_minute: wholeNumber(1_000_000).nullable().optional(),
  });
}
