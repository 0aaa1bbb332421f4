import type { Context } from 'hono';

/** What `@hono/node-server` passes as `env`: Node's request as its HTTP parser left it. */
interface NodeBindings {
  incoming?: { rawHeaders?: readonly string[] };
}

/**
 * `c.req.header(name)` for a lower-case `name`, without materialising the request's `Headers`:
 * on `@hono/node-server`, read from Node's raw header list, which its parser has already checked
 * (no CR, LF or NUL in a value) and trimmed; a repeated field is joined with ", " as `Headers.get`
 * joins it. Elsewhere (`app.request()`, other runtimes) `c.req.header(name)` itself.
 */
export function requestHeader(c: Context, name: string): string | undefined {
  return headerOf(c.req.raw, c.env, name);
}

/** `requestHeader` before a `Context` exists: `request` with the `env` it was served with. */
export function headerOf(request: Request, env: unknown, name: string): string | undefined {
  const raw = (env as NodeBindings | undefined)?.incoming?.rawHeaders;
  if (raw === undefined) return request.headers.get(name) ?? undefined;
  let value: string | undefined;
  for (let i = 0; i < raw.length; i += 2) {
    const field = raw[i]!;
    if (field.length === name.length && field.toLowerCase() === name)
      value = value === undefined ? raw[i + 1] : `${value}, ${raw[i + 1]}`;
  }
  return value;
}
