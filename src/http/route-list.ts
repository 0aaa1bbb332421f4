import { controllerMiddlewareFor } from './controller-middleware.js';
import type { ControllerClass } from './controller-registry.js';
import { isClass, parseActionString } from './dispatch.js';
import type { MiddlewareRef, Route } from './route.js';
import type { Router } from './router.js';

/** One row of `tollgate route:list`. */
export interface RouteListing {
  methods: string[];
  path: string;
  name: string | null;
  action: string;
  /** Group and route middleware, then the controller's for this action. */
  middleware: string[];
}

function refName(ref: MiddlewareRef): string {
  return typeof ref === 'string' ? ref : ref.name ? `Closure(${ref.name})` : 'Closure';
}

async function controllerOf(router: Router, route: Route): Promise<[ControllerClass, string] | undefined> {
  const action = route.action;
  if (typeof action === 'string') {
    const { controller, method } = parseActionString(action);
    const cls = await router.controllers.load(controller);
    return [cls, method ?? (typeof cls.prototype.invoke === 'function' ? 'invoke' : '__invoke')];
  }
  if (Array.isArray(action)) return [action[0] as ControllerClass, action[1] as string];
  if (isClass(action)) {
    const cls = action as ControllerClass;
    return [cls, typeof cls.prototype.invoke === 'function' ? 'invoke' : '__invoke'];
  }
  return undefined;
}

/** The route table as rows, loading string-referenced controllers to show their middleware. */
export async function listRoutes(router: Router): Promise<RouteListing[]> {
  const rows: RouteListing[] = [];
  for (const route of router.routes) {
    const target = await controllerOf(router, route);
    const [cls, method] = target ?? [];
    const name = cls ? (router.controllers.nameOf(cls) ?? cls.name) : undefined;
    const action = typeof route.action === 'string' ? route.action : cls ? `${name}@${method}` : 'Closure';
    const controllerMiddleware = cls && method ? controllerMiddlewareFor(cls, method) : [];
    rows.push({
      methods: [...route.methods],
      path: route.path,
      name: route.routeName ?? null,
      action,
      middleware: [...route.middlewareRefs, ...controllerMiddleware].map(refName),
    });
  }
  return rows;
}

/** A plain-text table: verb, path, name, action, middleware. */
export function formatRouteTable(rows: readonly RouteListing[]): string {
  const header = ['Method', 'URI', 'Name', 'Action', 'Middleware'];
  const cells = rows.map((r) => [
    r.methods.join('|'),
    r.path,
    r.name ?? '',
    r.action,
    r.middleware.join(', '),
  ]);
  const widths = header.map((h, i) => Math.max(h.length, ...cells.map((row) => row[i]!.length)));
  const line = (row: string[]) =>
    row
      .map((cell, i) => cell.padEnd(widths[i]!))
      .join('  ')
      .trimEnd();
  const rule = widths.map((w) => '-'.repeat(w)).join('  ');
  return [line(header), rule, ...cells.map(line)].join('\n');
}
