import type { Context, MiddlewareHandler } from 'hono';
import { ConfigurationError } from '../core/errors.js';
import type { MiddlewareRef } from './route.js';

/**
 * Controller middleware, declared on the class (Laravel's constructor `$this->middleware()`):
 *
 * ```ts
 * static middleware = ['log', { use: 'auth', except: ['index', 'show'] }, { use: audit, only: ['destroy'] }];
 * ```
 */
export type ControllerMiddleware =
  | MiddlewareRef
  | {
      use: MiddlewareRef | readonly MiddlewareRef[];
      only?: readonly string[];
      except?: readonly string[];
    };

/** The middleware a controller declares for one action, in declaration order. */
export function controllerMiddlewareFor(
  controller: { name: string; middleware?: readonly ControllerMiddleware[] },
  action: string,
): MiddlewareRef[] {
  const declared = controller.middleware ?? [];
  if (!Array.isArray(declared))
    throw new ConfigurationError(`${controller.name}.middleware must be an array.`);
  const out: MiddlewareRef[] = [];
  for (const entry of declared as readonly ControllerMiddleware[]) {
    if (typeof entry === 'string' || typeof entry === 'function') {
      out.push(entry);
      continue;
    }
    if (entry.only && entry.except)
      throw new ConfigurationError(
        `${controller.name}: a middleware entry takes "only" or "except", not both.`,
      );
    if (entry.only && !entry.only.includes(action)) continue;
    if (entry.except?.includes(action)) continue;
    out.push(...[entry.use].flat());
  }
  return out;
}

type Endpoint = (c: Context) => Response | Promise<Response>;
type MaybeResponse = Response | undefined;

/** What `next()` returns when everything after it answered synchronously: `c.res` is already set. */
const DONE: Promise<void> = Promise.resolve();

function isThenable(value: unknown): value is PromiseLike<unknown> {
  return typeof (value as PromiseLike<unknown> | undefined)?.then === 'function';
}

/**
 * A route's middleware and endpoint as one handler, with Hono's compose contract (a layer may
 * return a Response, or call `next()` and then read or replace `c.res`; an `Error` thrown in a
 * layer becomes `onError`'s response at that layer, so the layers outside still run). Unlike
 * compose, a layer that answers synchronously costs no promise: a chain whose every layer does
 * (a cached token, a scope check, a closure) returns its Response synchronously.
 */
export function chain(
  handlers: readonly MiddlewareHandler[],
  endpoint: Endpoint,
  onError: (err: Error, c: Context) => Response | Promise<Response>,
): Endpoint {
  const route: ChainRoute = { handlers, endpoint, onError };
  return (c) => {
    const pending = new ChainRun(route, c).dispatch(0);
    return pending === undefined ? finish(c) : pending.then(() => finish(c));
  };
}

interface ChainRoute {
  readonly handlers: readonly MiddlewareHandler[];
  readonly endpoint: Endpoint;
  readonly onError: (err: Error, c: Context) => Response | Promise<Response>;
}

/** One request through a chain. A class, not closures: nothing but `next` is allocated per layer. */
class ChainRun {
  index = -1;
  constructor(
    readonly route: ChainRoute,
    readonly c: Context,
  ) {}

  /** undefined: this layer and every one inside it finished synchronously. */
  dispatch(i: number): Promise<void> | undefined {
    if (i <= this.index) throw new Error('next() called multiple times');
    this.index = i;
    const { handlers, endpoint } = this.route;
    let res: unknown;
    try {
      res =
        i === handlers.length ? endpoint(this.c) : handlers[i]!(this.c, () => this.dispatch(i + 1) ?? DONE);
    } catch (err) {
      return this.fail(err);
    }
    if (res === DONE) return undefined;
    if (isThenable(res))
      return Promise.resolve(res as PromiseLike<MaybeResponse>).then(
        (r) => settle(this.c, r, false),
        (err) => this.fail(err),
      );
    settle(this.c, res, false);
    return undefined;
  }

  fail(err: unknown): Promise<void> | undefined {
    if (!(err instanceof Error)) throw err;
    const c = this.c;
    c.error = err;
    const res = this.route.onError(err, c);
    if (isThenable(res)) return Promise.resolve(res).then((r) => settle(c, r, true));
    settle(c, res, true);
    return undefined;
  }
}

function settle(c: Context, res: unknown, isError: boolean): void {
  if (res && (c.finalized === false || isError)) c.res = res as Response;
}

function finish(c: Context): Response {
  if (!c.finalized)
    throw new Error(
      'Context is not finalized. Did you forget to return a Response object or `await next()`?',
    );
  return c.res;
}
