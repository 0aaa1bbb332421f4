import type { Context, MiddlewareHandler } from 'hono';
import type { Constructor } from '../foundation/container.js';

export type HttpMethod = 'GET' | 'HEAD' | 'POST' | 'PUT' | 'PATCH' | 'DELETE' | 'OPTIONS';
export const allMethods: readonly HttpMethod[] = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'];

/** What a route runs: a closure, `[Controller, 'method']`, `'Admin/PhotoController@show'`, or an invokable class. */
export type RouteHandler = (c: Context) => unknown;
export type RouteAction = RouteHandler | readonly [Constructor, string] | string | Constructor;

/** Middleware by alias (`'auth'`, `'scopes:a,b'`), group name (`'web'`), or a handler `(c, next) => …`. */
export type MiddlewareRef = string | MiddlewareHandler;

/** One declared route: built fluently, then frozen into the route table by `Router.commit()`. */
export class Route {
  routeName: string | undefined;
  readonly middlewareRefs: MiddlewareRef[] = [];
  readonly wheres: Record<string, string> = {};

  constructor(
    readonly methods: readonly HttpMethod[],
    readonly path: string,
    readonly action: RouteAction,
    defaults: {
      namePrefix?: string;
      middleware?: readonly MiddlewareRef[];
      wheres?: Record<string, string>;
    } = {},
  ) {
    this.namePrefix = defaults.namePrefix ?? '';
    this.middlewareRefs.push(...(defaults.middleware ?? []));
    Object.assign(this.wheres, defaults.wheres);
  }

  private readonly namePrefix: string;

  name(name: string): this {
    this.routeName = this.namePrefix + name;
    return this;
  }

  middleware(...refs: (MiddlewareRef | readonly MiddlewareRef[])[]): this {
    for (const ref of refs.flat()) this.middlewareRefs.push(ref);
    return this;
  }

  /** Constrains a path parameter with a regular expression (without anchors). */
  where(param: string, pattern: string): this {
    this.wheres[param] = pattern;
    return this;
  }

  /** Parameter names in path order: `/photos/{photo}/comments/{comment?}` → `['photo', 'comment']`. */
  get parameterNames(): string[] {
    return [...this.path.matchAll(/\{(\w+)\??\}/g)].map((m) => m[1]!);
  }
}

/** Laravel-style `{param}` / `{param?}` paths to Hono's `:param` / `:param?` with patterns. */
export function toHonoPath(path: string, wheres: Record<string, string>): string {
  const hono = path.replace(/\{(\w+)(\?)?\}/g, (_, name: string, optional: string | undefined) => {
    const pattern = wheres[name] ? `{${wheres[name]}}` : '';
    return `:${name}${pattern}${optional ?? ''}`;
  });
  return hono === '' ? '/' : hono;
}
