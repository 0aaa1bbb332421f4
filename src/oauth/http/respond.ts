import type { Context } from 'hono';
import { CONNECTION_LOST_RETRY_SECONDS, isConnectionLost, isUnstorableInput } from '../../core/errors.js';
import type { Logger } from '../../core/logger.js';
import { OAuthError } from '../errors.js';
import type { TokenInput } from '../grants/token-endpoint.js';
import { formFields } from './form-fields.js';

/** RFC 6749 §5.1: token responses and errors must not be cached. */
export const noStore = { 'Cache-Control': 'no-store', Pragma: 'no-cache' } as const;

/**
 * The OAuth endpoints' errors, logged, then rendered by `OAuthError.getResponse()` (RFC 6749 §5.2
 * JSON, no-store); any other error is logged and becomes a bare `server_error`.
 */
export function oauthErrorResponse(c: Context, err: unknown, logger: Logger): Response {
  const error =
    err instanceof OAuthError
      ? err
      : isUnstorableInput(err)
        ? OAuthError.invalidRequest('The request contains a value that cannot be used.', {
            detail: 'the database refused a value',
          })
        : isConnectionLost(err)
          ? OAuthError.temporarilyUnavailable('database connection lost', CONNECTION_LOST_RETRY_SECONDS, err)
          : OAuthError.serverError('unexpected error at an OAuth endpoint', err);
  if (error.code === 'temporarily_unavailable')
    logger.warn({ err: (err as Error).message, path: c.req.path }, 'database connection lost: 503');
  else if (error.status >= 500) logger.error({ err, path: c.req.path }, 'OAuth endpoint failed');
  else if (error.detail) logger.debug({ code: error.code, detail: error.detail }, 'OAuth request refused');
  const res = error.getResponse();
  return c.newResponse(res.body, res);
}

/**
 * A form-posting OAuth endpoint (token, device authorization, PAR) over HTTP: the form and the
 * Authorization header in, its JSON answer out with `no-store`, or its error as §5.2 JSON.
 */
export async function answerFormEndpoint(
  c: Context,
  logger: Logger,
  handle: (input: TokenInput) => Promise<object>,
  status: 200 | 201 = 200,
  /** RFC 9449 §8.2: the `DPoP-Nonce` to send with the answer to a request with a proof, if any. */
  dpopNonce?: () => string | undefined,
): Promise<Response> {
  try {
    const body = await handle({
      form: () => readForm(c),
      authorization: c.req.header('authorization'),
      dpop: { proof: c.req.header('dpop'), method: c.req.method, url: c.req.url },
    });
    const nonce = dpopNonce && c.req.header('dpop') !== undefined ? dpopNonce() : undefined;
    return c.json(body, status, nonce === undefined ? noStore : { ...noStore, 'DPoP-Nonce': nonce });
  } catch (err) {
    return oauthErrorResponse(c, err, logger);
  }
}

/**
 * Reads an `application/x-www-form-urlencoded` body (RFC 6749 §3.2, §4.1.3). A parameter sent
 * twice is refused (§3.1, §3.2).
 */
export async function readForm(c: Context): Promise<Record<string, string>> {
  const fields = await formFields(c);
  if (fields === undefined) {
    throw OAuthError.invalidRequest('The request body must be application/x-www-form-urlencoded.');
  }
  const params: Record<string, string> = {};
  for (const [key, value] of fields) {
    if (key in params) throw repeated(key);
    params[key] = value;
  }
  return params;
}

/** RFC 6749 §3.1: parameters must not be repeated. The description names none: it is never input. */
function repeated(key: string): OAuthError {
  return OAuthError.invalidRequest('A parameter was sent more than once.', { detail: `repeated ${key}` });
}

/** The query as a record of single values; a repeated parameter is refused (RFC 6749 §3.1). */
export function readQuery(c: Context): Record<string, string> {
  const params: Record<string, string> = {};
  for (const [key, value] of new URL(c.req.url).searchParams) {
    if (key in params) throw repeated(key);
    params[key] = value;
  }
  return params;
}
