import type { Context, MiddlewareHandler } from 'hono';
import type { LoginAttempt, LoginThrottle } from '../../auth/login-throttle.js';
import { clientAddress, rateLimitHeaders, retryAfter, withRateLimitHeaders } from '../../rate-limits/http.js';
import type { RateLimitResult } from '../../rate-limits/rate-limit.js';
import type { RateLimits } from '../../rate-limits/rate-limits.js';
import { formFields } from './form-fields.js';
import { noStore } from './respond.js';
import { type PresentedClient, presentedClient, VerifiedCredentials } from './verified-credentials.js';

/**
 * `POST /oauth/token` rate limits, counted before the endpoint runs (so parallel requests cannot
 * outrun them) and settled from its answer:
 *
 * - a request presenting a client secret is an attempt on `token.address` and `token.client`
 *   that counts only when the answer is 401 `invalid_client`, so only failures add up —
 *   client-secret guessing (RFC 6749 §2.3.1, §10.10). While it runs it holds a place in flight
 *   (so parallel guesses cannot outrun the limit), which a crash gives up within seconds.
 *   Credentials this instance saw succeed skip both counters;
 * - a password grant (RFC 6749 §4.3.2: "MUST protect the endpoint against brute force attacks")
 *   counts against the login limits, per username and per address, exactly as the login form.
 *
 * Over a limit the answer is 429 with the RFC 6749 §5.2 error body, `temporarily_unavailable`
 * (§5.2 has no code for a rate limit; this one says "try again later"), `Retry-After` and the
 * `RateLimit` fields.
 */
export function throttleTokenRequests(limits: RateLimits, login: () => LoginThrottle): MiddlewareHandler {
  const verified = new VerifiedCredentials();
  const byAddress = limits.get('token.address');
  const byClient = limits.get('token.client');

  return async function throttleTokenRequests(c, next) {
    const fields = await formFields(c);
    if (!fields) return next(); // not a form: the endpoint refuses it before any check
    const params = Object.fromEntries(fields);
    const address = clientAddress();
    const authorization = c.req.header('authorization');
    const key = VerifiedCredentials.key(params, authorization);
    const guessing =
      key !== undefined && !verified.has(key) ? presentedClient(params, authorization) : undefined;
    const results: RateLimitResult[] = [];

    if (guessing) {
      results.push(await byAddress.begin(address));
      if (results[0]!.allowed) results.push(await byClient.begin(guessing.id));
      if (results.some((r) => !r.allowed)) {
        await settle(results, guessing, address, false);
        return tooMany(c, results);
      }
    }
    let password: LoginAttempt | undefined;
    const username = params.grant_type === 'password' ? params.username : undefined;
    if (typeof username === 'string' && username !== '') {
      password = await login().attempt(username, address);
      results.push(...password.results);
      if (!password.allowed) {
        if (guessing) await settle(results, guessing, address, false); // the client was not checked
        return tooMany(c, results);
      }
    }

    try {
      await next();
    } catch (err) {
      await unanswered();
      if (guessing) await settle(results, guessing, address, false);
      throw err;
    }
    // A server error answered nothing about the credentials: nothing it counted stays counted.
    if (c.res.status >= 500) await unanswered();
    // 401 is `invalid_client` here; any other answer did not fail the client's authentication.
    const clientFailed = c.res.status === 401;
    if (key !== undefined) {
      if (clientFailed) verified.forget(key);
      else if (c.res.status === 200 || c.res.status === 201) verified.add(key);
    }
    if (guessing) await settle(results, guessing, address, clientFailed);
    if (password && c.res.status === 200) await login().succeeded(username as string, address);
    if (results.length > 0) {
      const res = withRateLimitHeaders(c.res, results);
      if (res !== c.res) c.res = res;
    }

    async function unanswered() {
      if (password) await login().unanswered(username as string, address);
      password = undefined;
    }
  };

  /** Ends the client authentication attempts `results` began: they count only when it failed. */
  async function settle(
    results: RateLimitResult[],
    client: PresentedClient,
    address: string,
    failed: boolean,
  ) {
    const begun = results.filter((r) => r.allowed && r.name.startsWith('token.'));
    await Promise.all(
      begun.map((r) =>
        r.name === 'token.address' ? byAddress.settle(address, failed) : byClient.settle(client.id, failed),
      ),
    );
  }
}

function tooMany(c: Context, results: readonly RateLimitResult[]): Response {
  const seconds = retryAfter(results);
  return c.json(
    {
      error: 'temporarily_unavailable',
      error_description: `Too many attempts. Try again in ${seconds} ${seconds === 1 ? 'second' : 'seconds'}.`,
    },
    429,
    { ...noStore, ...rateLimitHeaders(results) },
  );
}
