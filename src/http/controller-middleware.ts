import type { Context, MiddlewareHandler } from 'hono';
import { ConfigurationError } from '../foundation/errors.js';
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

/**
 * Runs `handlers` as Hono middleware around `last`, for middleware known only once a lazily loaded
 * controller arrives. Same contract as Hono's compose: a handler may return a Response, or call
 * `next()` and then read or replace `c.res`.
 */
export async function runMiddleware(
  c: Context,
  handlers: readonly MiddlewareHandler[],
  last: () => Response | Promise<Response>,
): Promise<Response> {
  const step = async (i: number): Promise<void> => {
    if (i === handlers.length) {
      c.res = await last();
      return;
    }
    let called = false;
    const res = await handlers[i]!(c, async () => {
      if (called) throw new Error('next() called more than once');
      called = true;
      await step(i + 1);
    });
    if (res instanceof Response) c.res = res;
  };
  await step(0);
  return c.res;
}
