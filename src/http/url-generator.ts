import type { Context } from 'hono';
import { ConfigurationError } from '../core/errors.js';
import type { Route } from './route.js';

export type RouteParam = string | number | bigint | boolean;

/**
 * Parameters for `url()`: by name (`{ photo: 7 }`, extra keys become the query string), or in path
 * order (`7`, `[1, 2]`).
 */
export type UrlParams =
  | Readonly<Record<string, RouteParam | readonly RouteParam[] | null | undefined>>
  | RouteParam
  | readonly RouteParam[];

export interface UrlOptions {
  /** Prefix the application's URL (`config.app.url`, or `base`). */
  absolute?: boolean;
  base?: string;
}

/** An unknown route name, a missing parameter, or one that breaks the route's pattern. */
export class UrlGenerationError extends ConfigurationError {
  constructor(message: string) {
    super(message);
    this.name = 'UrlGenerationError';
  }
}

function named(route: Route, params: UrlParams | undefined): Map<string, unknown> {
  if (params === undefined || params === null) return new Map();
  if (typeof params !== 'object' || Array.isArray(params)) {
    const list = [params].flat() as RouteParam[];
    const names = route.parameterNames;
    if (list.length > names.length)
      throw new UrlGenerationError(
        `Too many parameters for ${route.describe()}: it takes ${names.length}, got ${list.length}.`,
      );
    return new Map(list.map((value, i) => [names[i]!, value]));
  }
  return new Map(Object.entries(params));
}

/** Fills a route's path: `/photos/{photo}` with `{ photo: 7 }` → `/photos/7`. */
export function buildPath(route: Route, params?: UrlParams): string {
  const values = named(route, params);
  let path = route.path.replace(/\/?\{(\w+)(\?)?\}/g, (segment, name: string, optional?: string) => {
    const value = values.get(name);
    values.delete(name);
    if (value === undefined || value === null || value === '') {
      if (optional) return '';
      throw new UrlGenerationError(`Missing required parameter "${name}" for ${route.describe()}.`);
    }
    const text = String(value);
    const pattern = route.wheres[name];
    if (pattern && !new RegExp(`^(?:${pattern})$`).test(text))
      throw new UrlGenerationError(
        `Parameter "${name}" = "${text}" does not match /${pattern}/ for ${route.describe()}.`,
      );
    const slash = segment.startsWith('/') ? '/' : '';
    return `${slash}${encodeURIComponent(text)}`;
  });
  if (path === '') path = '/';
  const query = new URLSearchParams();
  for (const [key, value] of values) {
    if (value === undefined || value === null) continue;
    for (const v of [value].flat()) query.append(key, String(v));
  }
  const qs = query.toString();
  return qs ? `${path}?${qs}` : path;
}

/** `http://example.com/` + `/photos/7` without doubling the slash. */
export function absoluteUrl(base: string, path: string): string {
  if (!base) throw new UrlGenerationError('An absolute URL needs a base URL: set config.app.url.');
  return `${base.replace(/\/+$/, '')}${path}`;
}

/**
 * URL generation from a request context or a controller (inject `RequestContext`):
 * `route(c, 'photos.show', { photo: 7 })` → `/photos/7`. An absolute URL uses `config.app.url`,
 * or the request's own origin when none is configured.
 */
export function route(c: Context, name: string, params?: UrlParams, options: UrlOptions = {}): string {
  const router = c.get('router');
  if (!router) throw new UrlGenerationError('route() needs a request served by a Tollgate router.');
  if (!options.absolute || options.base || router.baseUrl) return router.url(name, params, options);
  return router.url(name, params, { base: new URL(c.req.url).origin });
}
