import type { Context } from 'hono';
import type { Binding, Constructor, Container } from '../core/container.js';
import { ConfigurationError } from '../core/errors.js';
import { chain, controllerMiddlewareFor } from './controller-middleware.js';
import { type ControllerClass, ControllerRegistry } from './controller-registry.js';
import { MiddlewareRegistry } from './middleware-registry.js';
import { toResponse } from './respond.js';
import type { Route, RouteAction } from './route.js';

/** The request context as an injectable dependency: `static actionInject = { show: [RequestContext] }`. */
export const RequestContext = Symbol.for('tollgate.RequestContext');

export type RouteEndpoint = (c: Context) => Response | Promise<Response>;

/** Synchronous results stay synchronous: Hono answers those without an extra promise. */
function respond(c: Context, value: unknown): Response | Promise<Response> {
  return typeof (value as PromiseLike<unknown> | undefined)?.then === 'function'
    ? Promise.resolve(value).then((v) => toResponse(c, v))
    : toResponse(c, value);
}

interface Target {
  controller: ControllerClass;
  method: string;
  requestScoped: boolean;
}

function rethrow(err: Error): never {
  throw err;
}

/** A string action: `'Admin/PhotoController@show'` → controller and method; no `@` → a single-action controller. */
export function parseActionString(action: string): { controller: string; method: string | undefined } {
  const at = action.lastIndexOf('@');
  return at < 0
    ? { controller: action, method: undefined }
    : { controller: action.slice(0, at), method: action.slice(at + 1) };
}

export function isClass(fn: unknown): fn is Constructor {
  return typeof fn === 'function' && /^class[\s{]/.test(Function.prototype.toString.call(fn));
}

/** Laravel's `__invoke`, spelled either way. */
export function invokeMethodOf(controller: Constructor): string {
  const method = ['invoke', '__invoke'].find((m) => typeof controller.prototype[m] === 'function');
  if (!method)
    throw new ConfigurationError(
      `${controller.name} is used as a single-action controller but has no invoke() method.`,
    );
  return method;
}

/**
 * Turns a route's action into its endpoint: the controller middleware, then the action with its
 * injected dependencies and the route parameters. Class actions are checked now; string actions
 * that name no registered controller are imported on their first request.
 */
export function compileAction(
  route: Route,
  container: Container,
  registries: { controllers?: ControllerRegistry; middleware?: MiddlewareRegistry } = {},
): RouteEndpoint {
  const controllers = registries.controllers ?? new ControllerRegistry();
  const middleware = registries.middleware ?? new MiddlewareRegistry();
  const action = route.action;
  if (typeof action === 'function' && !isClass(action)) {
    const closure = action as (c: Context) => unknown;
    return (c) => respond(c, closure(c));
  }
  const params = route.parameterNames;
  const target = (controller: ControllerClass, method: string | undefined): RouteEndpoint => {
    const name = method ?? invokeMethodOf(controller);
    if (typeof controller.prototype[name] !== 'function')
      throw new ConfigurationError(`${controller.name} has no method "${name}" (${route.describe()}).`);
    const tokens = [...(controller.inject ?? []), ...(controller.actionInject?.[name] ?? [])];
    const t: Target = {
      controller,
      method: name,
      requestScoped: tokens.includes(RequestContext as unknown as Binding),
    };
    const endpoint: RouteEndpoint = (c) => invoke(t, c, container, params);
    const layers = middleware.resolve(controllerMiddlewareFor(controller, name));
    // Errors go on to the route's own chain, which renders them (see compile.ts).
    return layers.length ? chain(layers, endpoint, rethrow) : endpoint;
  };

  if (typeof action !== 'string') {
    const [cls, method] = classAction(action);
    return target(cls, method);
  }
  const { controller: name, method } = parseActionString(action);
  const registered = controllers.get(name);
  if (registered) return target(registered, method);
  let resolved: RouteEndpoint | undefined;
  return async (c) => {
    resolved ??= target(await controllers.load(name), method);
    return resolved(c);
  };
}

function classAction(action: Exclude<RouteAction, string>): [ControllerClass, string | undefined] {
  if (Array.isArray(action)) return [action[0] as ControllerClass, action[1] as string];
  return [action as ControllerClass, undefined];
}

function invoke(t: Target, c: Context, container: Container, params: string[]): Response | Promise<Response> {
  const values = params.map((name) => c.req.param(name));
  const injected = t.controller.actionInject?.[t.method];
  if (!t.controller.inject?.length && !injected?.length) {
    // Nothing to inject: skip the per-request container.
    const controller = new t.controller() as Record<string, (...args: unknown[]) => unknown>;
    return respond(c, controller[t.method]!.call(controller, ...values, c));
  }
  // A per-request child container only when something asks for the request context itself.
  const scope = t.requestScoped
    ? container.child().instance(RequestContext as unknown as Binding<Context>, c)
    : container;
  const controller = scope.construct(t.controller) as Record<string, (...args: unknown[]) => unknown>;
  const deps = injected?.length ? scope.resolveAll(injected, `${t.controller.name}@${t.method}`) : [];
  return respond(c, controller[t.method]!.call(controller, ...deps, ...values, c));
}
