import type { Context, MiddlewareHandler } from 'hono';
import type { Container } from '../core/container.js';
import { wantsJson } from '../http/respond.js';
import { renderPage } from '../views/render.js';

/** The methods that change state; GET, HEAD and OPTIONS pass unchecked. */
const UNSAFE = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);
export const CSRF_MISMATCH = 'CSRF token mismatch.';

/** Recognises a request that carries no session token by design (it changes nothing by itself). */
export type CsrfExemptionRule = (c: Context) => boolean | Promise<boolean>;

/**
 * Paths exempt from CSRF verification: `config.csrf.except` plus what modules add (webhook
 * receivers). Patterns are paths where `*` matches anything, slashes included, compared without
 * leading or trailing slashes: `stripe/*` and `/stripe/*` both exempt `/stripe/webhook`.
 */
export class CsrfExceptions {
  readonly #patterns: string[] = [];
  readonly #rules: CsrfExemptionRule[] = [];
  #regex: RegExp | undefined;

  /** The application's list; bound on first use, so the order providers register in does not matter. */
  static of(app: { container: Container }): CsrfExceptions {
    if (!app.container.has(CsrfExceptions)) app.container.instance(CsrfExceptions, new CsrfExceptions());
    return app.container.make(CsrfExceptions);
  }

  add(...patterns: string[]): this {
    this.#patterns.push(...patterns.map(trimSlashes).filter((p) => p !== ''));
    this.#regex = undefined;
    return this;
  }

  /**
   * Exempts the requests `rule` recognises, on any path: for a protocol endpoint that shares its
   * path with a form (OpenID Connect's authorization request by POST beside the approval form).
   */
  addRule(rule: CsrfExemptionRule): this {
    this.#rules.push(rule);
    return this;
  }

  /** Whether a rule exempts this request. */
  async exempts(c: Context): Promise<boolean> {
    for (const rule of this.#rules) if (await rule(c)) return true;
    return false;
  }

  get patterns(): readonly string[] {
    return this.#patterns;
  }

  matches(path: string): boolean {
    if (this.#patterns.length === 0) return false;
    this.#regex ??= new RegExp(
      `^(?:${this.#patterns.map((p) => p.split('*').map(escapeRegex).join('.*')).join('|')})$`,
    );
    return this.#regex.test(trimSlashes(path));
  }
}

/**
 * Exempts paths from CSRF verification (webhook receivers are called by a provider, not a browser).
 *
 * @example
 * csrfExcept(app, '/stripe/webhook', '/braintree/*');
 */
export function csrfExcept(app: { container: Container }, ...patterns: string[]): void {
  CsrfExceptions.of(app).add(...patterns);
}

/**
 * Rejects a state-changing request unless it carries the session's CSRF token in the form field
 * `_token` (or a JSON body's `_token`) or the `X-CSRF-TOKEN` header: 419, with nothing run.
 * Runs after `startSession()`.
 */
export function verifyCsrf(exceptions: CsrfExceptions): MiddlewareHandler {
  return async function verifyCsrf(c, next) {
    if (!UNSAFE.has(c.req.method) || exceptions.matches(c.req.path) || (await exceptions.exempts(c)))
      return next();
    const session = c.get('session');
    const given = await submittedToken(c);
    if (session && given && session.verifyCsrfToken(given)) return next();
    return tokenMismatch(c);
  };
}

async function submittedToken(c: Context): Promise<string | undefined> {
  const header = c.req.header('x-csrf-token');
  if (header) return header;
  const type = c.req.header('content-type') ?? '';
  try {
    // Hono caches the parsed body, so the handler can still read the form after this.
    if (type.startsWith('application/x-www-form-urlencoded') || type.startsWith('multipart/form-data')) {
      const token = (await c.req.parseBody())._token;
      return typeof token === 'string' ? token : undefined;
    }
    if (type.includes('json')) {
      const body: unknown = await c.req.json();
      const token = body && typeof body === 'object' ? (body as { _token?: unknown })._token : undefined;
      return typeof token === 'string' ? token : undefined;
    }
  } catch {
    // A body that does not parse carries no token.
  }
  return undefined;
}

function tokenMismatch(c: Context): Response | Promise<Response> {
  if (wantsJson(c)) return c.json({ message: CSRF_MISMATCH }, 419 as 400);
  return renderPage(
    c,
    { title: 'Page expired', status: 419 },
    <div class="card narrow">
      <h1>Page expired</h1>
      <p class="error">{CSRF_MISMATCH}</p>
      <p>
        The form you sent is out of date or did not come from this site. Go back, reload the page and try
        again.
      </p>
    </div>,
  );
}

function trimSlashes(path: string): string {
  return path.replace(/^\/+|\/+$/g, '');
}

function escapeRegex(text: string): string {
  return text.replace(/[.+?^${}()|[\]\\]/g, '\\$&');
}
