import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Binding, Constructor } from '../core/container.js';
import { ConfigurationError } from '../core/errors.js';
import type { ControllerMiddleware } from './controller-middleware.js';

/**
 * What Tollgate reads from a controller class, all declared explicitly (no decorator metadata):
 * `static inject` for the constructor, `static actionInject = { show: [Repo] }` for action methods,
 * `static middleware = [{ use: 'auth', only: ['store'] }]` for controller middleware.
 */
export interface ControllerClass<T = unknown> extends Constructor<T> {
  inject?: readonly Binding[];
  actionInject?: Readonly<Record<string, readonly Binding[]>>;
  middleware?: readonly ControllerMiddleware[];
}

/** `'Admin\\PhotoController'` and `'Admin/PhotoController'` name the same controller. */
export function normalizeControllerName(name: string): string {
  return name.replace(/\\/g, '/').replace(/^\/+|\/+$/g, '');
}

function kebab(segment: string): string {
  return segment
    .replace(/([a-z0-9])([A-Z])/g, '$1-$2')
    .replace(/([A-Z])([A-Z][a-z])/g, '$1-$2')
    .toLowerCase();
}

/**
 * Controllers by name. A registered controller can be referenced by string and written to the
 * route cache; any other string is a file under `root`, imported the first time a request needs it.
 */
export class ControllerRegistry {
  #root: string | undefined;
  #defaultRoot = resolve('app/controllers');
  readonly #byName = new Map<string, ControllerClass>();
  readonly #names = new Map<ControllerClass, string>();
  readonly #loading = new Map<string, Promise<ControllerClass>>();

  /** The controllers root: `'Admin/PhotoController'` is `<root>/Admin/PhotoController.ts` (or `admin/photo-controller.ts`). */
  get root(): string {
    return this.#root ?? this.#defaultRoot;
  }

  set root(path: string) {
    this.#root = resolve(path);
  }

  /** The root from configuration; a root set explicitly (`root = …`) wins over it. */
  useDefaultRoot(path: string): this {
    this.#defaultRoot = resolve(path);
    return this;
  }

  /** Registers a controller under a name (its class name by default), so routes to it can be cached. */
  register(controller: Constructor, name: string = controller.name): this {
    const key = normalizeControllerName(name);
    const existing = this.#byName.get(key);
    if (existing && existing !== controller)
      throw new ConfigurationError(`Two controllers are registered as "${key}".`);
    this.#byName.set(key, controller as ControllerClass);
    if (!this.#names.has(controller as ControllerClass)) this.#names.set(controller as ControllerClass, key);
    return this;
  }

  /** `registerMany({ 'OAuth/BindingController': BindingController })`. */
  registerMany(controllers: Record<string, Constructor>): this {
    for (const [name, controller] of Object.entries(controllers)) this.register(controller, name);
    return this;
  }

  get(name: string): ControllerClass | undefined {
    return this.#byName.get(normalizeControllerName(name));
  }

  nameOf(controller: Constructor): string | undefined {
    return this.#names.get(controller as ControllerClass);
  }

  /** A registered controller, or the module under `root` that exports it (by its last name segment or as default). */
  load(name: string): Promise<ControllerClass> {
    const key = normalizeControllerName(name);
    const registered = this.#byName.get(key);
    if (registered) return Promise.resolve(registered);
    let loading = this.#loading.get(key);
    if (!loading) {
      loading = this.#import(key);
      // A failed import is retried next time (the file may appear, as in development).
      loading.catch(() => this.#loading.delete(key));
      this.#loading.set(key, loading);
    }
    return loading;
  }

  async #import(key: string): Promise<ControllerClass> {
    const segments = key.split('/');
    const candidates = [segments, segments.map(kebab)].flatMap((parts) =>
      ['.ts', '.js', '.mjs'].map((ext) => `${join(this.root, ...parts)}${ext}`),
    );
    const file = candidates.find((f) => existsSync(f));
    if (!file)
      throw new ConfigurationError(
        `Controller "${key}" is neither registered nor found under ${this.root} (looked for ${candidates.join(', ')}).`,
      );
    const mod = (await import(pathToFileURL(file).href)) as Record<string, unknown>;
    const exported = mod[segments.at(-1)!] ?? mod.default;
    if (typeof exported !== 'function')
      throw new ConfigurationError(
        `${file} exports no class named ${segments.at(-1)} (nor a default export).`,
      );
    return exported as ControllerClass;
  }
}
