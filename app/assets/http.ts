/** Field errors of a 422 answer: `{ message, errors: { field: [..] } }` (DESIGN.md decision 5). */
export type FieldErrors = Record<string, string[]>;

export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly errors: FieldErrors = {},
  ) {
    super(message);
  }
}

/** The session's CSRF token, from the page's `<meta name="csrf-token">`. */
export function csrfToken(): string {
  return document.querySelector<HTMLMetaElement>('meta[name="csrf-token"]')?.content ?? '';
}

/**
 * The two headers every same-origin call carries: the session's CSRF token, and the marker that
 * lets the `api` guard accept the HttpOnly `app_token` cookie. The page never sees a token.
 */
export function frontendHeaders(): Record<string, string> {
  return { Accept: 'application/json', 'X-CSRF-TOKEN': csrfToken(), 'X-Requested-With': 'XMLHttpRequest' };
}

/**
 * A credentials JSON API path in the page's scope: the organization the dashboard's switcher chose
 * (`?organization_id=`, as the page's own forms post), or the user's own.
 */
export function scoped(path: string): string {
  const id = document.querySelector<HTMLElement>('[data-organization-scope]')?.dataset.organizationScope;
  return id ? `${path}?organization_id=${encodeURIComponent(id)}` : path;
}

/** Calls a JSON API of the service; non-2xx answers throw an ApiError carrying the field errors. */
export async function api<T = unknown>(method: string, path: string, body?: unknown): Promise<T> {
  const headers: Record<string, string> = frontendHeaders();
  if (body !== undefined) headers['Content-Type'] = 'application/json';
  const res = await fetch(path, {
    method,
    headers,
    credentials: 'same-origin',
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  let data: unknown = null;
  try {
    data = text ? JSON.parse(text) : null;
  } catch {
    data = text;
  }
  if (!res.ok) {
    const payload = (data ?? {}) as { message?: string; errors?: FieldErrors };
    throw new ApiError(res.status, payload.message ?? `Request failed (${res.status})`, payload.errors ?? {});
  }
  return data as T;
}

/**
 * Deletes a record through a JSON API. A 404 means it is gone already (another tab, a double
 * click): the list is reloaded either way, so that is not an error here.
 */
export async function apiDelete(path: string): Promise<void> {
  try {
    await api('DELETE', path);
  } catch (err) {
    if (!(err instanceof ApiError && err.status === 404)) throw err;
  }
}
