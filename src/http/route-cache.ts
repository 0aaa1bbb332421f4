import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { ConfigurationError } from '../core/errors.js';
import type { ControllerRegistry } from './controller-registry.js';
import { invokeMethodOf, isClass } from './dispatch.js';
import type { Route, RouteDefinition } from './route.js';

/** The file `tollgate route:cache` writes: the compiled route table as data, never code. */
export interface RouteCacheFile {
  version: 1;
  generatedAt: string;
  routes: RouteDefinition[];
}

/** Some routes cannot be written to the cache; the message names each of them. */
export class RouteCacheError extends ConfigurationError {
  constructor(readonly problems: string[]) {
    super(`The routes cannot be cached:\n  - ${problems.join('\n  - ')}`);
    this.name = 'RouteCacheError';
  }
}

/**
 * A route's action as a string the cache can hold: strings as they are, class actions by the name
 * their controller is registered under. `undefined` for a closure or an unregistered class.
 */
export function serializeAction(route: Route, controllers: ControllerRegistry): string | undefined {
  const action = route.action;
  if (typeof action === 'string') return action;
  if (Array.isArray(action)) {
    const name = controllers.nameOf(action[0]);
    return name ? `${name}@${action[1]}` : undefined;
  }
  if (isClass(action)) {
    invokeMethodOf(action); // fails now, with a clear message, rather than at the first request
    return controllers.nameOf(action);
  }
  return undefined;
}

function whyNot(route: Route): string {
  const action = route.action;
  if (typeof action === 'function' && !isClass(action))
    return `${route.describe()} uses a closure action; use a controller instead`;
  const cls = Array.isArray(action) ? action[0] : action;
  return `${route.describe()} uses controller ${(cls as { name: string }).name}, which is not registered (router.controllers.register(${(cls as { name: string }).name}))`;
}

/** The route table as cache data; throws a RouteCacheError naming every route that cannot be cached. */
export function serializeRoutes(
  routes: readonly Route[],
  controllers: ControllerRegistry,
  now: Date,
): RouteCacheFile {
  const problems: string[] = [];
  const out: RouteDefinition[] = [];
  for (const route of routes) {
    const action = serializeAction(route, controllers);
    if (action === undefined) problems.push(whyNot(route));
    const closures = route.middlewareRefs.filter((m) => typeof m !== 'string');
    if (closures.length > 0)
      problems.push(`${route.describe()} has closure middleware; register it as an alias instead`);
    if (action === undefined || closures.length > 0) continue;
    out.push({
      methods: [...route.methods],
      path: route.path,
      name: route.routeName ?? null,
      action,
      middleware: route.middlewareRefs as string[],
      wheres: { ...route.wheres },
      ...(route.bodyLimitKind ? { bodyLimit: route.bodyLimitKind } : {}),
    });
  }
  if (problems.length > 0) throw new RouteCacheError(problems);
  return { version: 1, generatedAt: now.toISOString(), routes: out };
}

/** Written to a temporary file and renamed, so a booting server never reads half a cache. */
export function writeRouteCache(path: string, file: RouteCacheFile): void {
  mkdirSync(dirname(path), { recursive: true });
  const tmp = `${path}.${process.pid}.tmp`;
  writeFileSync(tmp, `${JSON.stringify(file, null, 2)}\n`);
  renameSync(tmp, path);
}

/** The cached table, or `undefined` when there is no cache file. */
export function readRouteCache(path: string): RouteCacheFile | undefined {
  if (!existsSync(path)) return undefined;
  let data: unknown;
  try {
    data = JSON.parse(readFileSync(path, 'utf8'));
  } catch (err) {
    throw new ConfigurationError(
      `The route cache ${path} is not valid JSON (${String(err)}); run \`tollgate route:clear\`.`,
    );
  }
  const file = data as Partial<RouteCacheFile>;
  if (file.version !== 1 || !Array.isArray(file.routes))
    throw new ConfigurationError(
      `The route cache ${path} has an unknown format; run \`tollgate route:cache\` again.`,
    );
  return file as RouteCacheFile;
}

/** Removes the cache file; `false` when there was none. */
export function clearRouteCache(path: string): boolean {
  if (!existsSync(path)) return false;
  rmSync(path);
  return true;
}
