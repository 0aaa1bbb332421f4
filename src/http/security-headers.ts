import type { ServerResponse } from 'node:http';
import type { CspSources } from './config.js';
import { secureServerResponse } from './secure-response.js';

/**
 * The Content-Security-Policy every response starts from: scripts, styles, fonts and requests
 * from the service itself only, no inline script, no plugins, no `<base>` rewriting, and no page
 * of ours inside anyone's frame. There is deliberately no `form-action`: browsers apply it to the
 * redirect after the OAuth approval form, which goes to the client's own site.
 */
const STRICT_POLICY: Readonly<Record<string, readonly string[]>> = {
  'default-src': ["'self'"],
  'script-src': ["'self'"],
  'style-src': ["'self'"],
  'img-src': ["'self'", 'data:'],
  'font-src': ["'self'"],
  'connect-src': ["'self'"],
  'frame-src': [],
  'object-src': [],
  'base-uri': [],
  'frame-ancestors': [],
};

const DIRECTIVE = /^[a-z-]+$/;
// A source may not end the directive or smuggle another one in.
const SOURCE = /^[^\s;,]+$/;

/** A response header store with a `setHeader` (Node's ServerResponse), as @hono/node-server passes it. */
interface NodeOutgoing {
  setHeader(name: string, value: string): unknown;
  headersSent?: boolean;
}

/**
 * The headers every response carries unless it sets its own: the CSP above, `nosniff`, framing
 * refused, no referrer, and `Cache-Control: no-store` (pages show secrets once; a response that
 * may be cached, such as a versioned asset, says so itself). Modules add CSP sources while they
 * register — billing adds its payment provider's script origin — and the set is fixed at commit.
 */
export class SecurityHeaders {
  readonly #policy = new Map<string, Set<string>>(
    Object.entries(STRICT_POLICY).map(([directive, sources]) => [directive, new Set(sources)]),
  );
  readonly #headers = new Map<string, string>([
    ['x-content-type-options', 'nosniff'],
    ['x-frame-options', 'DENY'],
    ['referrer-policy', 'no-referrer'],
    ['cache-control', 'no-store'],
  ]);
  #entries: readonly (readonly [string, string])[] | undefined;
  #serverResponse: typeof ServerResponse | undefined;

  /** Adds sources to a CSP directive: `allow('script-src', 'https://js.stripe.com')`. */
  allow(directive: string, ...sources: string[]): this {
    if (this.#entries) throw new Error('The security headers are fixed once the router is committed.');
    if (!DIRECTIVE.test(directive)) throw new Error(`"${directive}" is not a CSP directive name.`);
    const bad = sources.find((source) => !SOURCE.test(source));
    if (bad !== undefined) throw new Error(`"${bad}" is not a CSP source for ${directive}.`);
    const set = this.#policy.get(directive) ?? new Set<string>();
    this.#policy.set(directive, set);
    for (const source of sources) set.add(source);
    return this;
  }

  /** Every directive of `sources` (the `http.csp` configuration). */
  allowAll(sources: CspSources): this {
    for (const [directive, list] of Object.entries(sources)) this.allow(directive, ...(list ?? []));
    return this;
  }

  /** Replaces a default header; `undefined` drops it. */
  set(name: string, value: string | undefined): this {
    if (this.#entries) throw new Error('The security headers are fixed once the router is committed.');
    if (value === undefined) this.#headers.delete(name.toLowerCase());
    else this.#headers.set(name.toLowerCase(), value);
    return this;
  }

  get contentSecurityPolicy(): string {
    return this.policyWith('default-src');
  }

  /**
   * The Content-Security-Policy with more sources for one directive, for one response (say, a
   * page showing a client's logo from its own site); the shared policy is left as it is.
   */
  policyWith(directive: string, ...sources: string[]): string {
    const bad = sources.find((source) => !SOURCE.test(source));
    if (bad !== undefined) throw new Error(`"${bad}" is not a CSP source for ${directive}.`);
    return [...this.#policy]
      .map(([name, list]) => {
        const all = name === directive ? new Set([...list, ...sources]) : list;
        return `${name} ${all.size ? [...all].join(' ') : "'none'"}`;
      })
      .join('; ');
  }

  /** The headers as name/value pairs, fixed from the first call on. */
  entries(): readonly (readonly [string, string])[] {
    this.#entries ??= Object.freeze([
      ['content-security-policy', this.contentSecurityPolicy] as const,
      ...this.#headers,
    ]);
    return this.#entries;
  }

  /**
   * Node's response class that writes the headers with the status line (`secureServerResponse`),
   * for `http.createServer({ ServerResponse })`; `listen()` serves with it. It reads them at its
   * first response, so a server may listen before the application boots.
   */
  serverResponse(): typeof ServerResponse {
    this.#serverResponse ??= secureServerResponse(this);
    return this.#serverResponse;
  }

  /**
   * Sees to the headers on Node's response before the app answers (`@hono/node-server` passes it
   * as `env.outgoing`); headers the response sets itself win. Nothing to do for a response of
   * `serverResponse()`'s class; on another, they are set with `setHeader`, which is still cheaper
   * than copying a Response's headers. False when there is no Node response to set them on.
   */
  presetOn(env: unknown): boolean {
    const outgoing = (env as { outgoing?: NodeOutgoing } | undefined)?.outgoing;
    if (typeof outgoing?.setHeader !== 'function' || outgoing.headersSent) return false;
    if (this.#serverResponse !== undefined && outgoing instanceof this.#serverResponse) return true;
    for (const [name, value] of this.entries()) outgoing.setHeader(name, value);
    return true;
  }

  /** The response with every header it does not set itself (for runtimes other than Node's server). */
  addTo(response: Response): Response {
    let target = response;
    for (const [name, value] of this.entries()) {
      if (target.headers.has(name)) continue;
      try {
        target.headers.set(name, value);
      } catch {
        // Immutable headers (`Response.redirect()`, a proxied `fetch()`): copy the response once.
        target = new Response(target.body, target);
        target.headers.set(name, value);
      }
    }
    return target;
  }
}
