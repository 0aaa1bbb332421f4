import { Hono, type MiddlewareHandler } from 'hono';
import type { Container } from '../foundation/container.js';
import { ConfigurationError } from '../foundation/errors.js';
import type { Logger } from '../foundation/logger.js';
import { compileAction } from './dispatch.js';
import { notFound, renderError } from './error-handler.js';
import { MiddlewareRegistry } from './middleware-registry.js';
import { toResponse } from './respond.js';
import {
  allMethods,
  type HttpMethod,
  type MiddlewareRef,
  Route,
  type RouteAction,
  toHonoPath,
} from './route.js';

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
  readonly #stack: GroupFrame[] = [{ prefix: '', as: '', middleware: [], namespace: '', where: {} }];
  #committed: Hono | undefined;

  get #frame(): GroupFrame {
    return this.#stack.at(-1)!;
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
    this.routes.push(route);
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

  private namespaced(action: RouteAction): RouteAction {
    const ns = this.#frame.namespace;
    return typeof action === 'string' && ns ? `${ns}/${action}` : action;
  }

  byName(name: string): Route | undefined {
    return this.routes.find((r) => r.routeName === name);
  }

  /** Validates the table (duplicate names, unknown middleware) and compiles it onto a Hono app. */
  commit(container: Container, logger: Logger, before: MiddlewareHandler[] = []): Hono {
    if (this.#committed) return this.#committed;
    const names = new Set<string>();
    for (const route of this.routes) {
      if (!route.routeName) continue;
      if (names.has(route.routeName))
        throw new ConfigurationError(`Two routes are named "${route.routeName}".`);
      names.add(route.routeName);
    }
    const app = new Hono();
    app.onError((err, c) => renderError(err, c, logger));
    app.notFound(notFound);
    for (const mw of before) app.use(mw);
    for (const route of this.routes) {
      const middleware = this.middleware.resolve(route.middlewareRefs);
      const run = compileAction(route, container);
      const handler = async (c: Parameters<MiddlewareHandler>[0]) => toResponse(c, await run(c));
      const handlers = [...middleware, handler] as unknown as [MiddlewareHandler];
      app.on([...route.methods], [toHonoPath(route.path, route.wheres)], ...handlers);
    }
    this.#committed = app;
    return app;
  }
}
