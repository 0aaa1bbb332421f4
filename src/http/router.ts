import type { Hono, MiddlewareHandler } from 'hono';
import type { TollgateConfig } from '../core/config.js';
import type { Constructor, Container } from '../core/container.js';
import { ConfigurationError } from '../core/errors.js';
import type { Logger } from '../core/logger.js';
import { compileRoutes } from './compile.js';
import type { BodyLimits } from './config.js';
import { ControllerRegistry } from './controller-registry.js';
import { type ErrorPage, type ErrorResponseHook, errorPage } from './error-handler.js';
import { MiddlewareRegistry } from './middleware-registry.js';
import type { RequestObserver } from './request-observer.js';
import {
  type ApiResourceAction,
  apiResourceActions,
  expandResource,
  type ResourceAction,
  type ResourceDefaults,
  type ResourceOptions,
  ResourceRegistration,
} from './resource.js';
import { allMethods, type HttpMethod, type MiddlewareRef, Route, type RouteAction } from './route.js';
import { type RouteCacheFile, readRouteCache, serializeRoutes } from './route-cache.js';
import { SecurityHeaders } from './security-headers.js';
import { TrustedProxies } from './trusted-proxies.js';
import {
  absoluteUrl,
  buildPath,
  UrlGenerationError,
  type UrlOptions,
  type UrlParams,
} from './url-generator.js';

declare module 'hono' {
  interface ContextVariableMap {
    /** The router that matched the request: `route(c, 'photos.show', { photo: 7 })`. */
    router: Router;
    /** The matched route's name, else `METHOD /path/{pattern}`: what metering counts usage under. */
    routeLabel: string;
  }
}

export interface GroupAttributes {
  prefix?: string;
  /** Name prefix, e.g. `admin.` */
  as?: string;
  middleware?: MiddlewareRef | MiddlewareRef[];
  /** Controller namespace prefix for string actions, e.g. `Admin`. */
  namespace?: string;
  where?: Record<string, string>;
}

interface GroupFrame {
  prefix: string;
  as: string;
  middleware: MiddlewareRef[];
  namespace: string;
  where: Record<string, string>;
}

function joinPath(a: string, b: string): string {
  const joined = `${a.replace(/\/+$/, '')}/${b.replace(/^\/+/, '')}`;
  return joined.length > 1 ? joined.replace(/\/+$/, '') : '/';
}

/**
 * The route table. Routes are plain data until `commit()`, which validates them and compiles them
 * onto Hono in registration order — so a route registered first wins, as the spec's rule 5 asks.
 */
export class Router {
  readonly routes: Route[] = [];
  readonly middleware = new MiddlewareRegistry();
  readonly controllers = new ControllerRegistry();
  /** The application's URL, for `url(name, params, { absolute: true })`; boot sets it from `config.app.url`. */
  baseUrl = '';
  /** The headers every response carries; modules add CSP sources (`securityHeaders.allow('script-src', …)`). */
  readonly securityHeaders = new SecurityHeaders();
  /** The HTML error and 404 page; the auth provider gives it the site's layout. */
  errorPage: ErrorPage = errorPage;
  /** Hooks on the responses errors render to (see `ErrorResponseHook`); modules push theirs. */
  readonly errorHooks: ErrorResponseHook[] = [];
  /** Told of every answered request (metrics); modules push theirs before `commit()`. */
  readonly requestObservers: RequestObserver[] = [];
  /** Whose `X-Forwarded-For` names the client; `useHttpConfig` sets them from `http.trustedProxies`. */
  trustedProxies = new TrustedProxies();
  /** Request body limits by kind; `useHttpConfig` sets them from `http.bodyLimits`. */
  bodyLimits: BodyLimits | undefined;
  readonly #stack: GroupFrame[] = [{ prefix: '', as: '', middleware: [], namespace: '', where: {} }];
  readonly #resources: ResourceDefaults = { verbs: { create: 'create', edit: 'edit' }, parameters: {} };
  #byName: Map<string, Route> | undefined;
  #cachedFrom: string | undefined;
  #committed: Hono | undefined;

  get #frame(): GroupFrame {
    return this.#stack.at(-1)!;
  }

  /** Where the table came from when it was loaded from the route cache, else `undefined`. */
  get cachedFrom(): string | undefined {
    return this.#cachedFrom;
  }

  match(methods: readonly HttpMethod[] | HttpMethod, path: string, action: RouteAction): Route {
    if (this.#committed)
      throw new ConfigurationError('Routes cannot be added after the router is committed.');
    const frame = this.#frame;
    const list = (Array.isArray(methods) ? methods : [methods]) as HttpMethod[];
    const withHead = list.includes('GET') && !list.includes('HEAD') ? [...list, 'HEAD' as const] : list;
    const route = new Route(withHead, joinPath(frame.prefix, path), this.namespaced(action), {
      namePrefix: frame.as,
      middleware: frame.middleware,
      wheres: frame.where,
    });
    // With a route cache loaded, declarations are not part of the table: rebuild the cache to add them.
    if (!this.#cachedFrom) this.routes.push(route);
    return route;
  }

  get(path: string, action: RouteAction): Route {
    return this.match('GET', path, action);
  }
  post(path: string, action: RouteAction): Route {
    return this.match('POST', path, action);
  }
  put(path: string, action: RouteAction): Route {
    return this.match('PUT', path, action);
  }
  patch(path: string, action: RouteAction): Route {
    return this.match('PATCH', path, action);
  }
  delete(path: string, action: RouteAction): Route {
    return this.match('DELETE', path, action);
  }
  options(path: string, action: RouteAction): Route {
    return this.match('OPTIONS', path, action);
  }
  any(path: string, action: RouteAction): Route {
    return this.match(allMethods, path, action);
  }

  group(attributes: GroupAttributes, define: (router: this) => void): this {
    const frame = this.#frame;
    const middleware = attributes.middleware === undefined ? [] : [attributes.middleware].flat();
    this.#stack.push({
      prefix: joinPath(frame.prefix, attributes.prefix ?? ''),
      as: frame.as + (attributes.as ?? ''),
      middleware: [...frame.middleware, ...middleware],
      namespace: [frame.namespace, attributes.namespace].filter(Boolean).join('/'),
      where: { ...frame.where, ...attributes.where },
    });
    try {
      define(this);
    } finally {
      this.#stack.pop();
    }
    return this;
  }

  /** A pattern for every later route with this parameter (Laravel's `Route::pattern`). */
  pattern(param: string, regex: string): this {
    this.#stack[0]!.where[param] = regex;
    return this;
  }

  /**
   * The spec's seven resource routes (rules 1–3): `resource('photos', PhotoController)`, nested
   * `resource('photos.comments', CommentController)` → `/photos/{photo}/comments/{comment}`.
   */
  resource(
    name: string,
    controller: Constructor | string,
    options: ResourceOptions = {},
  ): ResourceRegistration {
    return this.#registerResource(name, controller, options);
  }

  /** A resource without the HTML-form routes `create` and `edit`. */
  apiResource(
    name: string,
    controller: Constructor | string,
    options: ResourceOptions<ApiResourceAction> = {},
  ): ResourceRegistration {
    return this.#registerResource(name, controller, options, apiResourceActions);
  }

  resources(map: Record<string, Constructor | string>, options: ResourceOptions = {}): this {
    for (const [name, controller] of Object.entries(map)) this.resource(name, controller, options);
    return this;
  }

  apiResources(
    map: Record<string, Constructor | string>,
    options: ResourceOptions<ApiResourceAction> = {},
  ): this {
    for (const [name, controller] of Object.entries(map)) this.apiResource(name, controller, options);
    return this;
  }

  /** Localises the `create`/`edit` path words of every later resource: `{ create: 'crear', edit: 'editar' }`. */
  resourceVerbs(verbs: Partial<ResourceDefaults['verbs']>): this {
    Object.assign(this.#resources.verbs, verbs);
    return this;
  }

  /** Parameter names for every later resource: `{ people: 'member' }`. */
  resourceParameters(parameters: Record<string, string>): this {
    Object.assign(this.#resources.parameters, parameters);
    return this;
  }

  #registerResource(
    name: string,
    controller: Constructor | string,
    options: ResourceOptions<any>,
    allowed?: readonly ResourceAction[],
  ): ResourceRegistration {
    const byAction = new Map<ResourceAction, Route>();
    for (const r of expandResource(name, controller, options, this.#resources, allowed)) {
      const route = this.match(r.methods, r.path, r.action).name(r.name);
      if (options.middleware) route.middleware(options.middleware);
      if (options.where) route.where(options.where);
      byAction.set(r.resource, route);
    }
    return new ResourceRegistration(byAction);
  }

  private namespaced(action: RouteAction): RouteAction {
    const ns = this.#frame.namespace;
    return typeof action === 'string' && ns ? `${ns}/${action.replace(/\\/g, '/')}` : action;
  }

  byName(name: string): Route | undefined {
    // Names can still change while routes are declared; the index is built once the table is frozen.
    if (!this.#committed) return this.routes.find((r) => r.routeName === name);
    this.#byName ??= new Map(this.routes.filter((r) => r.routeName).map((r) => [r.routeName!, r]));
    return this.#byName.get(name);
  }

  has(name: string): boolean {
    return this.byName(name) !== undefined;
  }

  /** `url('photos.show', { photo: 7 })` → `/photos/7`; extra parameters become the query string. */
  url(name: string, params?: UrlParams, options: UrlOptions = {}): string {
    const route = this.byName(name);
    if (!route) throw new UrlGenerationError(`Route "${name}" is not defined.`);
    const path = buildPath(route, params);
    return options.absolute || options.base ? absoluteUrl(options.base ?? this.baseUrl, path) : path;
  }

  /** Replaces the table with the route cache at `path`, if there is one; later declarations are ignored. */
  loadCache(path: string): boolean {
    const file = readRouteCache(path);
    if (!file) return false;
    this.useCache(file, path);
    return true;
  }

  useCache(file: RouteCacheFile, source = 'route cache'): this {
    if (this.#committed) throw new ConfigurationError('The route cache must be loaded before commit().');
    this.routes.splice(0, this.routes.length, ...file.routes.map((d) => Route.fromDefinition(d)));
    this.#cachedFrom = source;
    return this;
  }

  /** The table as route-cache data; throws naming each closure route or unregistered controller. */
  toCache(now: Date = new Date()): RouteCacheFile {
    return serializeRoutes(this.routes, this.controllers, now);
  }

  /** The `http` configuration's body limits and extra CSP sources (boot calls this). */
  useHttpConfig(
    http: Pick<TollgateConfig['http'], 'bodyLimits' | 'csp'> & { trustedProxies?: string[] },
  ): this {
    this.bodyLimits = http.bodyLimits;
    this.trustedProxies = new TrustedProxies(http.trustedProxies);
    this.securityHeaders.allowAll(http.csp);
    return this;
  }

  /** Validates the table (duplicate names, unknown middleware) and compiles it onto a Hono app. */
  commit(container: Container, logger: Logger, before: MiddlewareHandler[] = []): Hono {
    if (this.#committed) return this.#committed;
    const app = compileRoutes(this.routes, {
      router: this,
      container,
      logger,
      controllers: this.controllers,
      middleware: this.middleware,
      before,
      bodyLimits: this.bodyLimits,
      securityHeaders: this.securityHeaders,
      errorHooks: this.errorHooks,
      observers: this.requestObservers,
      trustedProxies: this.trustedProxies,
    });
    this.#byName = undefined;
    this.#committed = app;
    return app;
  }
}
