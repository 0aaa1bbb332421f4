import type { Context, MiddlewareHandler } from 'hono';
import type { Constructor } from '../core/container.js';
import type { BodyLimitKind } from './config.js';

export type HttpMethod = 'GET' | 'HEAD' | 'POST' | 'PUT' | 'PATCH' | 'DELETE' | 'OPTIONS';
export const allMethods: readonly HttpMethod[] = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'];

/** What a route runs: a closure, `[Controller, 'method']`, `'Admin/PhotoController@show'`, or an invokable class. */
export type RouteHandler = (c: Context) => unknown;
export type RouteAction = RouteHandler | readonly [Constructor, string] | string | Constructor;

/** Middleware by alias (`'auth'`, `'scopes:a,b'`), group name (`'web'`), or a handler `(c, next) => …`. */
export type MiddlewareRef = string | MiddlewareHandler;

/** A route as plain data: what `route:cache` writes and boot reads back. */
export interface RouteDefinition {
  methods: HttpMethod[];
  path: string;
  name: string | null;
  /** `'PhotoController@show'`, or `'PhotoController'` for a single-action controller. */
  action: string;
  /** Aliases and group names only: closures cannot be written to a file. */
  middleware: string[];
  wheres: Record<string, string>;
  /** Set when the route declared one (`route.bodyLimit('webhooks')`). */
  bodyLimit?: BodyLimitKind;
}

/** One declared route: built fluently, then frozen into the route table by `Router.commit()`. */
export class Route {
  routeName: string | undefined;
  /** The body limit this route declared; see `bodyLimit()`. */
  bodyLimitKind: BodyLimitKind | undefined;
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

  /** Rebuilds a route from the route cache. */
  static fromDefinition(definition: RouteDefinition): Route {
    const route = new Route(definition.methods, definition.path, definition.action, {
      middleware: definition.middleware,
      wheres: definition.wheres,
    });
    if (definition.name) route.name(definition.name);
    if (definition.bodyLimit) route.bodyLimit(definition.bodyLimit);
    return route;
  }

  /** Names the route; a group's `as` prefix is prepended (`admin.` + `photos` → `admin.photos`). */
  name(name: string): this {
    this.routeName = this.namePrefix + name;
    return this;
  }

  /** Appends middleware after the group's: group → route → controller is the order they run in. */
  middleware(...refs: (MiddlewareRef | readonly MiddlewareRef[])[]): this {
    for (const ref of refs.flat()) this.middlewareRefs.push(ref);
    return this;
  }

  /**
   * Which of `http.bodyLimits` applies to this route's request bodies (`'oauth'`, `'webhooks'`, …).
   * Without it a URL-encoded or multipart body gets `forms` and any other body `default`. The limit
   * is enforced before routing, while the body streams in: a larger body is answered 413 unread.
   */
  bodyLimit(kind: BodyLimitKind): this {
    this.bodyLimitKind = kind;
    return this;
  }

  /** Constrains a path parameter with a regular expression (without anchors). */
  where(param: string, pattern: string): this;
  where(patterns: Record<string, string>): this;
  where(param: string | Record<string, string>, pattern?: string): this {
    if (typeof param === 'string') this.wheres[param] = pattern ?? '';
    else Object.assign(this.wheres, param);
    return this;
  }

  whereNumber(...params: string[]): this {
    for (const p of params) this.wheres[p] = '[0-9]+';
    return this;
  }

  whereAlpha(...params: string[]): this {
    for (const p of params) this.wheres[p] = '[a-zA-Z]+';
    return this;
  }

  whereUuid(...params: string[]): this {
    for (const p of params) this.wheres[p] = '[0-9a-fA-F]{8}-(?:[0-9a-fA-F]{4}-){3}[0-9a-fA-F]{12}';
    return this;
  }

  /** The parameter must be one of `values` (matched literally). */
  whereIn(param: string, values: readonly string[]): this {
    this.wheres[param] = `(?:${values.map((v) => v.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('|')})`;
    return this;
  }

  /** Parameter names in path order: `/photos/{photo}/comments/{comment?}` → `['photo', 'comment']`. */
  get parameterNames(): string[] {
    return [...this.path.matchAll(/\{(\w+)\??\}/g)].map((m) => m[1]!);
  }

  /** `GET /photos/{photo}` or the route's name, for error messages. */
  describe(): string {
    const verbs = this.methods.filter((m) => m !== 'HEAD').join('|');
    return this.routeName
      ? `route "${this.routeName}" (${verbs} ${this.path})`
      : `route ${verbs} ${this.path}`;
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
