import type { Context } from 'hono';

const parsed = new WeakMap<Request, URLSearchParams>();

/**
 * The request's `application/x-www-form-urlencoded` body, parsed once per request: the token
 * endpoint's two throttles and the endpoint itself all read it. Undefined when the body is not
 * URL-encoded. Callers must not change what they get. (`c.req.parseBody()` caches too, but builds
 * a `FormData` through undici's `Response.formData()`: about 50 µs of CPU per request, measured.)
 */
export async function formFields(c: Context): Promise<URLSearchParams | undefined> {
  const type = c.req.header('content-type') ?? '';
  if (!type.toLowerCase().startsWith('application/x-www-form-urlencoded')) return undefined;
  let fields = parsed.get(c.req.raw);
  if (fields === undefined) {
    fields = new URLSearchParams(await c.req.text());
    parsed.set(c.req.raw, fields);
  }
  return fields;
}
