import { type Context, Hono, type MiddlewareHandler } from 'hono';
import type { Container } from '../core/container.js';
import { ConfigurationError } from '../core/errors.js';
import type { Logger } from '../core/logger.js';
import { currentRequest } from '../core/request-context.js';
import { tracingEnabled } from '../core/tracing.js';
import { BodyLimitTable } from './body-limit.js';
import { type BodyLimits, defaultBodyLimits } from './config.js';
import { chain } from './controller-middleware.js';
import type { ControllerRegistry } from './controller-registry.js';
import { compileAction, type RouteEndpoint } from './dispatch.js';
import { guardEntry } from './entry.js';
import { type ErrorResponseHook, notFound, renderError } from './error-handler.js';
import type { MiddlewareRegistry } from './middleware-registry.js';
import type { RequestObserver } from './request-observer.js';
import { type Route, toHonoPath } from './route.js';
import type { Router } from './router.js';
import { SecurityHeaders } from './security-headers.js';
import type { TrustedProxies } from './trusted-proxies.js';

export interface CompileOptions {
  router: Router;
  container: Container;
  logger: Logger;
  controllers: ControllerRegistry;
  middleware: MiddlewareRegistry;
  /** App-level middleware, run before every route's. */
  before?: readonly MiddlewareHandler[];
  /** Request body limits by kind (`http.bodyLimits`); the documented defaults when omitted. */
  bodyLimits?: BodyLimits;
  /** The headers every response carries; the strict defaults when omitted. */
  securityHeaders?: SecurityHeaders;
  /** Run on each `HttpError`'s response (see `ErrorResponseHook`). */
  errorHooks?: readonly ErrorResponseHook[];
  /** Told of every answered request (see `RequestObserver`). */
  observers?: readonly RequestObserver[];
  /** Whose `X-Forwarded-For` names the client (the audit log's address); none when omitted. */
  trustedProxies?: TrustedProxies;
}

function assertUniqueNames(routes: readonly Route[]): void {
  const names = new Set<string>();
  for (const route of routes) {
    if (!route.routeName) continue;
    if (names.has(route.routeName))
      throw new ConfigurationError(`Two routes are named "${route.routeName}".`);
    names.add(route.routeName);
  }
}

/** What usage is counted under: the route's name, else its methods and path pattern (`GET /orders/{order}`). */
function routeLabel(route: Route): string {
  if (route.routeName) return route.routeName;
  const methods = route.methods.filter((m) => m !== 'HEAD');
  return `${(methods.length ? methods : route.methods).join('|')} ${route.path}`;
}

/** A configuration mistake, with the route it was found on. */
function onRoute(err: unknown, route: Route): unknown {
  if (!(err instanceof ConfigurationError) || err.message.includes(route.describe())) return err;
  return new ConfigurationError(`${err.message.replace(/\.$/, '')} (${route.describe()}).`);
}

/**
 * The route table onto a Hono app, in registration order (Hono runs the first match first: spec
 * rule 5). Aliases, groups and controllers are resolved here, once, not per request.
 */
export function compileRoutes(routes: readonly Route[], options: CompileOptions): Hono {
  assertUniqueNames(routes);
  const { router, container, logger } = options;
  const limits = new BodyLimitTable(options.bodyLimits ?? defaultBodyLimits, routes);
  const app = new Hono();
  const hooks = options.errorHooks ?? [];
  app.onError((err, c) => renderError(err, c, logger, hooks));
  app.notFound((c) => notFound(c, router.errorPage));
  for (const mw of options.before ?? []) app.use(mw);
  const onError = (err: Error, c: Context) => renderError(err, c, logger, hooks);
  const observers = options.observers ?? [];
  // A request's span is named by its route, like its metrics are labelled.
  const traced = tracingEnabled();
  const labelled = observers.length > 0 || traced;
  for (const route of routes) {
    let middleware: MiddlewareHandler[];
    let endpoint: RouteEndpoint;
    try {
      middleware = options.middleware.resolve(route.middlewareRefs);
      endpoint = compileAction(route, container, options);
    } catch (err) {
      throw onRoute(err, route);
    }
    // One Hono handler per route, running its middleware itself: Hono's fast path for a single
    // handler, and no promise per layer when every layer answers synchronously.
    const run = middleware.length ? chain(middleware, endpoint, onError) : endpoint;
    const label = routeLabel(route);
    const handler = (c: Context) => {
      c.set('router', router);
      c.set('routeLabel', label);
      return run(c);
    };
    // Observers see the route a request matched; without them, routing records nothing more.
    const observedHandler = (c: Context) => {
      const request = currentRequest();
      if (request) request.route = label;
      return handler(c);
    };
    app.on([...route.methods], [toHonoPath(route.path, route.wheres)], labelled ? observedHandler : handler);
  }
  return guardEntry(
    app,
    limits,
    options.securityHeaders ?? new SecurityHeaders(),
    observers,
    traced,
    options.trustedProxies,
  );
}
