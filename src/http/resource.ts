import pluralize from 'pluralize';
import type { Constructor } from '../core/container.js';
import { ConfigurationError } from '../core/errors.js';
import type { HttpMethod, MiddlewareRef, Route, RouteAction } from './route.js';

export type ResourceAction = 'index' | 'create' | 'store' | 'show' | 'edit' | 'update' | 'destroy';
export type ApiResourceAction = Exclude<ResourceAction, 'create' | 'edit'>;

/** The spec's table, in Laravel's registration order: `create` before `{item}` so it is not taken for an id. */
const table: readonly {
  action: ResourceAction;
  methods: HttpMethod[];
  member: boolean;
  verb?: 'create' | 'edit';
}[] = [
  { action: 'index', methods: ['GET'], member: false },
  { action: 'create', methods: ['GET'], member: false, verb: 'create' },
  { action: 'store', methods: ['POST'], member: false },
  { action: 'show', methods: ['GET'], member: true },
  { action: 'edit', methods: ['GET'], member: true, verb: 'edit' },
  { action: 'update', methods: ['PUT', 'PATCH'], member: true },
  { action: 'destroy', methods: ['DELETE'], member: true },
];

export const resourceActions: readonly ResourceAction[] = table.map((r) => r.action);
export const apiResourceActions: readonly ApiResourceAction[] = [
  'index',
  'store',
  'show',
  'update',
  'destroy',
];

export interface ResourceOptions<A extends ResourceAction = ResourceAction> {
  only?: readonly A[];
  except?: readonly A[];
  /** Route names per action (`{ index: 'gallery' }`), or a prefix for all (`'gallery'` → `gallery.index`). */
  names?: Partial<Record<A, string>> | string;
  /** Parameter name per resource name: `{ photos: 'image' }` → `/photos/{image}`. */
  parameters?: Readonly<Record<string, string>>;
  middleware?: MiddlewareRef | readonly MiddlewareRef[];
  where?: Readonly<Record<string, string>>;
}

/** Router-wide resource settings: localised path verbs and parameter names. */
export interface ResourceDefaults {
  verbs: { create: string; edit: string };
  parameters: Record<string, string>;
}

/** `photos` → `photo`, `categories` → `category`, `people` → `person`; `user-profiles` → `user_profile`. */
export function resourceParameter(resource: string, overrides: Readonly<Record<string, string>>): string {
  return overrides[resource] ?? pluralize.singular(resource).replace(/\W/g, '_');
}

/** The routes a resource declaration expands to, as `(methods, path, action, name)` rows. */
export function expandResource(
  name: string,
  controller: Constructor | string,
  options: ResourceOptions,
  defaults: ResourceDefaults,
  allowed: readonly ResourceAction[] = resourceActions,
): { methods: HttpMethod[]; path: string; action: RouteAction; name: string; resource: ResourceAction }[] {
  if (options.only && options.except)
    throw new ConfigurationError(`Resource "${name}": pass "only" or "except", not both.`);
  for (const a of [...(options.only ?? []), ...(options.except ?? [])])
    if (!resourceActions.includes(a))
      throw new ConfigurationError(`Resource "${name}": unknown action "${a}".`);
  const segments = name.split('.').filter(Boolean);
  if (segments.length === 0) throw new ConfigurationError('A resource needs a name.');
  const parameters = { ...defaults.parameters, ...options.parameters };
  const parents = segments
    .slice(0, -1)
    .map((s) => `/${s}/{${resourceParameter(s, parameters)}}`)
    .join('');
  const last = segments.at(-1)!;
  const collection = `${parents}/${last}`;
  const member = `${collection}/{${resourceParameter(last, parameters)}}`;
  const names = options.names;
  return table
    .filter((r) => allowed.includes(r.action))
    .filter((r) => !options.only || options.only.includes(r.action))
    .filter((r) => !options.except?.includes(r.action))
    .map((r) => {
      const base = r.member ? member : collection;
      const path = r.verb ? `${base}/${defaults.verbs[r.verb]}` : base;
      const routeName =
        typeof names === 'string' ? `${names}.${r.action}` : (names?.[r.action] ?? `${name}.${r.action}`);
      const action: RouteAction =
        typeof controller === 'string' ? `${controller}@${r.action}` : [controller, r.action];
      return { methods: r.methods, path, action, name: routeName, resource: r.action };
    });
}

/** The routes one `resource()` call registered; lets you add middleware or patterns to all of them. */
export class ResourceRegistration {
  readonly #byAction: ReadonlyMap<ResourceAction, Route>;

  constructor(byAction: ReadonlyMap<ResourceAction, Route>) {
    this.#byAction = byAction;
  }

  get routes(): Route[] {
    return [...this.#byAction.values()];
  }

  middleware(...refs: (MiddlewareRef | readonly MiddlewareRef[])[]): this {
    for (const route of this.routes) route.middleware(...refs);
    return this;
  }

  where(param: string, pattern: string): this {
    for (const route of this.routes) route.where(param, pattern);
    return this;
  }

  /** The route generated for one action, e.g. to add middleware to `store` only. */
  route(action: ResourceAction): Route | undefined {
    return this.#byAction.get(action);
  }
}
