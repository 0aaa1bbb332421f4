import { isIPv6 } from 'node:net';
import type { Context } from 'hono';
import { HttpError } from '../core/errors.js';
import { currentRequest } from '../core/request-context.js';
import { takesPresetHeaders } from '../http/secure-response.js';
import { decimal } from './decimal.js';
import type { RateLimitResult } from './rate-limit.js';

/**
 * The IETF rate-limit fields (draft-ietf-httpapi-ratelimit-headers): `RateLimit-Policy` lists each
 * limit consulted (`q` attempts per `w` seconds), `RateLimit` what is left of each (`r`) and when
 * it resets (`t`, seconds); a refusal adds `Retry-After` (RFC 9110 §10.2.3) with the longest wait.
 */
export function rateLimitHeaders(results: readonly RateLimitResult[]): Record<string, string> {
  const only = soleAllowed(results);
  if (only) return { 'RateLimit-Policy': policyField(only), RateLimit: remainingField(only) };
  const live = results.filter((r) => r.policy.points > 0);
  if (live.length === 0) return {};
  const headers: Record<string, string> = {
    'RateLimit-Policy': live.map(policyField).join(', '),
    RateLimit: live.map(remainingField).join(', '),
  };
  const refused = live.filter((r) => !r.allowed);
  if (refused.length > 0) headers['Retry-After'] = String(retryAfter(refused));
  return headers;
}

/** The usual answer's one limit, which let the request through: its fields need no arrays. */
function soleAllowed(results: readonly RateLimitResult[]): RateLimitResult | undefined {
  const only = results.length === 1 ? results[0]! : undefined;
  return only?.allowed && only.policy.points > 0 ? only : undefined;
}

/** Each limit's `RateLimit-Policy` item, made once per limit (its policy object). */
const policyFields = new WeakMap<RateLimitResult['policy'], { name: string; field: string }>();

function policyField(r: RateLimitResult): string {
  const known = policyFields.get(r.policy);
  if (known?.name === r.name) return known.field;
  const field = `"${r.name}";q=${r.policy.points};w=${r.policy.durationSeconds}`;
  policyFields.set(r.policy, { name: r.name, field });
  return field;
}

const remainingField = (r: RateLimitResult) =>
  `"${r.name}";r=${decimal(r.remaining)};t=${decimal(r.resetSeconds)}`;

/**
 * Puts the rate-limit fields on the request's response: when `@hono/node-server` serves it
 * (`env.outgoing`), straight onto Node's response — written with the status line and the security
 * headers when `listen()` serves it (`presetHeaders`), else with `setHeader` — and through Hono
 * otherwise. Headers the response sets itself (a 429's) win.
 */
export function presetRateLimitHeaders(c: Context, results: readonly RateLimitResult[]): void {
  const outgoing = (c.env as { outgoing?: NodeOutgoing } | undefined)?.outgoing;
  const node = typeof outgoing?.setHeader === 'function' && !outgoing.headersSent ? outgoing : undefined;
  const only = soleAllowed(results);
  if (only && takesPresetHeaders(node)) {
    // Nothing built but the two values and the list (a literal: no room reserved beyond them).
    node.presetHeaders(['ratelimit-policy', policyField(only), 'ratelimit', remainingField(only)]);
    return;
  }
  const headers = rateLimitHeaders(results);
  const fields: string[] = [];
  for (const name in headers) {
    if (takesPresetHeaders(node)) fields.push(name.toLowerCase(), headers[name]!);
    else if (node) node.setHeader(name, headers[name]!);
    else c.header(name, headers[name]!);
  }
  if (takesPresetHeaders(node)) node.presetHeaders(fields);
}

interface NodeOutgoing {
  headersSent: boolean;
  setHeader(name: string, value: string): unknown;
}

/** Seconds until every refused limit lets the subject try again. */
export function retryAfter(results: readonly RateLimitResult[]): number {
  return Math.max(0, ...results.filter((r) => !r.allowed).map((r) => r.resetSeconds));
}

/** A 429 (RFC 6585 §4) for the one error handler: `{ message }` as JSON, else an error page. */
export function tooManyRequests(results: readonly RateLimitResult[]): HttpError {
  return new HttpError(429, 'Too Many Attempts.', { headers: rateLimitHeaders(results) });
}

/**
 * The client's address as limits count it: `clientIp()`, an IPv6 one by its /64 (the block one
 * host usually holds); requests handed to `app.fetch` in process have none ("local").
 */
export function clientAddress(): string {
  const address = clientIp();
  if (!address) return 'local';
  return isIPv6(address) ? `${ipv6Prefix64(address)}::/64` : address;
}

/**
 * The client's address for the request the caller runs for, as the request's entry decided it once
 * for everything (rate limits, sessions, new-device notices, the audit log): the TCP peer, or,
 * when the peer is one of `TRUSTED_PROXIES`, the right-most `X-Forwarded-For` hop that is not
 * (docs/security.md). Undefined in process and outside a request.
 */
export function clientIp(): string | undefined {
  return currentRequest()?.origin?.().ip;
}

/** The first four groups of an IPv6 address, expanded (`2001:db8::1` → `2001:db8:0:0`). */
function ipv6Prefix64(address: string): string {
  const [head = '', tail] = address.split('%')[0]!.split('::');
  const left = head ? head.split(':') : [];
  const right = tail ? tail.split(':') : [];
  const groups =
    tail === undefined ? left : [...left, ...Array(8 - left.length - right.length).fill('0'), ...right];
  return groups
    .slice(0, 4)
    .map((g: string) => g.toLowerCase().replace(/^0+(?=.)/, ''))
    .join(':');
}

/** `res` with the rate-limit fields set (a copy when its headers are immutable). */
export function withRateLimitHeaders(res: Response, results: readonly RateLimitResult[]): Response {
  const headers = Object.entries(rateLimitHeaders(results));
  let out = res;
  try {
    for (const [name, value] of headers) out.headers.set(name, value);
  } catch {
    // A Response built elsewhere (Response.redirect) has immutable headers: copy it first.
    out = new Response(res.body, res);
    for (const [name, value] of headers) out.headers.set(name, value);
  }
  return out;
}
