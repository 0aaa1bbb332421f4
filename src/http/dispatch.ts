import type { Context } from 'hono';
import type { Constructor, Container, Token } from '../foundation/container.js';
import { ConfigurationError } from '../foundation/errors.js';
import type { Route } from './route.js';

/** The request context as an injectable dependency. */
export const RequestContext = Symbol.for('tollgate.RequestContext');

/** A controller class may declare what each action needs: `static actionInject = { show: [Repo] }`. */
interface ControllerClass extends Constructor {
  inject?: readonly Token[];
  actionInject?: Record<string, readonly Token[]>;
  middleware?: unknown;
}

/** Turns a route's action into a handler; class and string actions are resolved through the container. */
export function compileAction(route: Route, container: Container): (c: Context) => Promise<unknown> {
  const params = route.parameterNames;
  const action = route.action;
  if (typeof action === 'function' && !isClass(action)) {
    return async (c) => (action as (c: Context) => unknown)(c);
  }
  const [cls, method] = resolveClassAction(action);
  return async (c) => {
    const scope = container.child().instance(RequestContext as unknown as Token<Context>, c);
    const controller = scope.construct(cls) as Record<string, (...args: unknown[]) => unknown>;
    const fn = controller[method];
    if (typeof fn !== 'function') throw new ConfigurationError(`${cls.name} has no method "${method}".`);
    const deps = scope.resolveAll(cls.actionInject?.[method] ?? [], `${cls.name}@${method}`);
    const values = params.map((name) => c.req.param(name));
    return fn.call(controller, ...deps, ...values, c);
  };
}

function isClass(fn: unknown): boolean {
  return typeof fn === 'function' && /^class[\s{]/.test(Function.prototype.toString.call(fn));
}

function resolveClassAction(action: Route['action']): [ControllerClass, string] {
  if (Array.isArray(action)) return [action[0] as ControllerClass, action[1] as string];
  if (typeof action === 'function') {
    const cls = action as ControllerClass;
    const method = ['invoke', '__invoke'].find((m) => typeof cls.prototype[m] === 'function');
    if (!method)
      throw new ConfigurationError(
        `${cls.name} is used as a single-action controller but has no invoke method.`,
      );
    return [cls, method];
  }
  throw new ConfigurationError(`String controller actions ("${String(action)}") need a controllers root.`);
}
