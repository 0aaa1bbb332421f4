/** Spec rule 4: the verbs an HTML form may carry in `_method`. */
const spoofable = new Set(['PUT', 'PATCH', 'DELETE']);

function withoutBodyHeaders(headers: Headers, dropType: boolean): Headers {
  const out = new Headers(headers);
  out.delete('content-length');
  if (dropType) out.delete('content-type');
  return out;
}

/** The text a replayed request serves its body from. */
const bodyText = Symbol('tollgate.bodyText');
type Replayed = Request & { [bodyText]: string };

function asResponse(request: Replayed): Response {
  const type = request.headers.get('content-type') ?? 'application/x-www-form-urlencoded';
  return new Response(request[bodyText], { headers: { 'content-type': type } });
}

const own = (value: (this: Replayed) => unknown) => ({ value, configurable: true, writable: true });

// Shared functions reading `this[bodyText]`: nothing is allocated per request but the text.
const replayed: PropertyDescriptorMap = {
  text: own(function () {
    return Promise.resolve(this[bodyText]);
  }),
  json: own(function () {
    return Promise.resolve(this[bodyText]).then(JSON.parse);
  }),
  arrayBuffer: own(function () {
    return asResponse(this).arrayBuffer();
  }),
  blob: own(function () {
    return asResponse(this).blob();
  }),
  formData: own(function () {
    return asResponse(this).formData();
  }),
  clone: own(function () {
    const { url, method, headers, signal } = this;
    return new Request(url, { method, headers, signal, body: this[bodyText] });
  }),
  body: {
    get(this: Replayed) {
      return asResponse(this).body;
    },
    configurable: true,
  },
  bodyUsed: { get: () => false, configurable: true },
};

/**
 * Serves the body methods of a request whose URL-encoded body was already read, from that text.
 * `request.clone()` would build a full fetch Request and tee its stream for every form POST (the
 * node adapter's requests are lightweight until then): an eighth of the token endpoint's time.
 * The request object itself is kept, so its URL, headers and abort signal stay the adapter's.
 */
function replayBody(request: Request, text: string): Request {
  (request as Replayed)[bodyText] = text;
  return Object.defineProperties(request, replayed);
}

/**
 * A form POST with `_method=PUT|PATCH|DELETE` becomes a request with that verb (the field is
 * removed). Anything else is returned as is: its body unread, or — for a URL-encoded form, which
 * had to be read to look — replayable from the text read once.
 */
export async function spoofMethod(request: Request): Promise<Request> {
  if (request.method !== 'POST') return request;
  const type = request.headers.get('content-type') ?? '';
  if (type.startsWith('application/x-www-form-urlencoded')) {
    const text = await request.text();
    // `_method` may arrive percent-encoded (`%5Fmethod`), so look for the rest of the name.
    if (!text.includes('method')) return replayBody(request, text);
    const form = new URLSearchParams(text);
    const method = form.get('_method')?.toUpperCase();
    if (!method || !spoofable.has(method)) return replayBody(request, text);
    form.delete('_method');
    const headers = withoutBodyHeaders(request.headers, false);
    return new Request(request.url, { method, headers, body: form.toString(), signal: request.signal });
  }
  if (type.startsWith('multipart/form-data')) {
    const form = await request.clone().formData();
    const field = form.get('_method');
    const method = typeof field === 'string' ? field.toUpperCase() : undefined;
    if (!method || !spoofable.has(method)) return request;
    form.delete('_method');
    // The body is re-encoded with a new boundary, so the old content-type must go.
    const headers = withoutBodyHeaders(request.headers, true);
    return new Request(request.url, { method, headers, body: form, signal: request.signal });
  }
  return request;
}
